/// What a response template sees (§11), computed only for the names a render reaches and kept for
/// the rest of the answer: `request.…` from the request model the variants read too, `cache.KEY` (as last
/// published), `call`, `now`, `uuid` (one per answer, so the body and a header agree) and `mockServer`; for
/// a script's template, the members of the data it gave on top (a data member wins over a name above). As in the
/// scripts' request object (§12), a query, form or header name given once is a string and one given more
/// than once a list of its values, in order; `pathComponents` starts with `/`. One per answer, on one thread.
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
    private lazy var wholeRequest: JSONValue = .object(Self.requestParts.map { JSONMember(key: $0, value: requestPart($0) ?? .null) })

    static let requestParts = [
        "method", "path", "query", "body", "headers", "pathParameters", "pathComponents", "queryParameters", "formParameters", "bodyJSON",
    ]

    public init(model: RequestModel, call: Int, cache: PanRequestCache? = nil, environment: TemplateEnvironment, data: JSONValue? = nil) {
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
        guard let name = rest.first else { return requestPart(part) }
        let value: JSONValue?
        switch part {
        case "headers": value = Self.oneOrMany(model.headerValues(name.lowercased()))
        case "pathParameters": value = model.pathParameter(name).map(JSONValue.string)
        case "queryParameters": value = Self.oneOrMany(model.queryValues(name))
        case "formParameters": value = Self.oneOrMany(model.formValues(name))
        case "bodyJSON": return model.bodyTooLarge ? nil : model.bodyJSON?.descendant(at: rest)
        default: return requestPart(part)?.descendant(at: rest)
        }
        return value?.descendant(at: rest.dropFirst())
    }

    /// Nothing for no value, a string for one, a list for several.
    private static func oneOrMany(_ values: [String]) -> JSONValue? {
        switch values.count {
        case 0: nil
        case 1: .string(values[0])
        default: .array(values.map(JSONValue.string))
        }
    }

    /// One part of the request, whole.
    private func requestPart(_ part: String) -> JSONValue? {
        let request = model.request
        switch part {
        case "method": return .string(request.method)
        case "path": return .string(request.path)
        case "query": return .string(request.rawQuery)
        case "body": return model.bodyTooLarge ? nil : model.bodyText.map(JSONValue.string)
        case "bodyJSON": return model.bodyTooLarge ? nil : model.bodyJSON
        case "pathComponents": return .array([.string("/")] + request.segments.segments.map(JSONValue.string))
        case "headers": return Self.object(model.headers.map { ($0.name.lowercased(), $0.value) })
        case "pathParameters": return Self.object(model.pathParameters.map { ($0.name, $0.value) })
        case "queryParameters": return Self.object(model.queryParameters.fields.map { ($0.name, $0.value) })
        case "formParameters": return Self.object(model.formParameters.fields.map { ($0.name, $0.value) })
        default: return nil
        }
    }

    /// An object of each name's value (a list of them for a repeated name), in order of first appearance.
    private static func object(_ pairs: [(String, String)]) -> JSONValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(value)
        }
        return .object(names.map { JSONMember(key: $0, value: oneOrMany(values[$0]!)!) })
    }
}
