/// What a response template sees (doc/templates.md), computed only for the names a render reaches and kept for
/// the rest of the answer: `request.…` from the request model the variants read too, `cache.KEY` (as last
/// published), `call`, `now`, `uuid` (one per answer, so the body and a header agree) and `mockServer`; for
/// a script's template, the members of the data it gave on top (a data member wins over a name above).
/// `request` is the request object scripts get too (`RequestModel.part`). One per answer, on one thread.
public final class ResponseTemplateContext: MustacheContext {
    public let model: RequestModel
    /// This exchange's (or variant's) call number, from 1.
    public let call: Int
    /// The request's session's cache, or the default one.
    private let cache: PanRequestCache
    private let environment: TemplateEnvironment
    /// A script's template data; nil for a response template.
    private let data: [JSONMember]?
    private lazy var now: String = Timestamp.now.iso8601
    private lazy var uuid: String = RandomUUID.make()
    private lazy var wholeRequest: JSONValue = .object(
        RequestModel.partNames.map { JSONMember(key: $0, value: model.part($0) ?? .null) })

    public init(
        model: RequestModel, call: Int, cache: PanRequestCache? = nil, environment: TemplateEnvironment,
        data: JSONValue? = nil
    ) {
        self.model = model
        self.call = call
        self.cache = cache ?? environment.cache
        self.environment = environment
        if case .object(let members)? = data { self.data = members } else { self.data = nil }
    }

    public func value(at path: [String]) -> JSONValue? {
        let rest = path.dropFirst()
        if let data, let given = data.last(where: { $0.key == path[0] }) { return given.value.descendant(at: rest) }
        switch path[0] {
        case "request": return request(rest)
        case "cache":
            guard let key = rest.first else { return cache.snapshot }
            return cache.value(forKey: key)?.descendant(at: rest.dropFirst())
        case "call": return JSONValue.integer(Int64(call)).descendant(at: rest)
        case "now": return JSONValue.string(now).descendant(at: rest)
        case "uuid": return JSONValue.string(uuid).descendant(at: rest)
        case "mockServer": return JSONValue.string(environment.mockServer).descendant(at: rest)
        default: return nil
        }
    }

    public func rootValue() -> JSONValue {
        let builtIn: [JSONMember] = [
            JSONMember(key: "request", value: wholeRequest),
            JSONMember(key: "cache", value: cache.snapshot),
            JSONMember(key: "call", value: .integer(Int64(call))),
            JSONMember(key: "now", value: .string(now)),
            JSONMember(key: "uuid", value: .string(uuid)),
            JSONMember(key: "mockServer", value: .string(environment.mockServer)),
        ]
        guard let data else { return .object(builtIn) }
        return .object(builtIn.filter { member in !data.contains { $0.key == member.key } } + data)
    }

    /// `request.PART.NAME…`: a single name is looked up without building the whole part.
    private func request(_ path: ArraySlice<String>) -> JSONValue? {
        guard let part = path.first else { return wholeRequest }
        let rest = path.dropFirst()
        guard let name = rest.first else { return model.part(part) }
        if part == "bodyJSON" { return model.bodyTooLarge ? nil : model.bodyJSON?.descendant(at: rest) }
        return model.part(part, named: name)?.descendant(at: rest.dropFirst())
    }
}
