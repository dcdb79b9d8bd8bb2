/// What a response template sees (§11), computed only for the names a render reaches and kept for
/// the rest of the answer: `request.…` from the request model the variants read too, `cache.KEY`,
/// `call`, `now`, `uuid` (one per answer, so the body and a header agree) and `mockServer`. Repeated
/// query, form or header names give their first value. One per answer, on one thread.
public final class ResponseTemplateContext: MustacheContext {
    public let model: RequestModel
    /// This exchange's (or variant's) call number, from 1.
    public let call: Int
    private let environment: TemplateEnvironment
    private lazy var now: String = Timestamp.now.iso8601
    private lazy var uuid: String = RandomUUID.make()
    private lazy var wholeRequest: JSONValue = .object(Self.requestParts.map { JSONMember(key: $0, value: requestPart($0) ?? .null) })

    static let requestParts = [
        "method", "path", "query", "body", "headers", "pathParameters", "pathComponents", "queryParameters", "formParameters", "bodyJSON",
    ]

    public init(model: RequestModel, call: Int, environment: TemplateEnvironment) {
        self.model = model
        self.call = call
        self.environment = environment
    }

    public func value(at path: [String]) -> JSONValue? {
        let rest = path.dropFirst()
        switch path[0] {
        case "request": return request(rest)
        case "cache":
            guard let key = rest.first else { return environment.cache.snapshot }
            return environment.cache.value(forKey: key)?.descendant(at: rest.dropFirst())
        case "call": return JSONValue.integer(Int64(call)).descendant(at: rest)
        case "now": return JSONValue.string(now).descendant(at: rest)
        case "uuid": return JSONValue.string(uuid).descendant(at: rest)
        case "mockServer": return JSONValue.string(environment.mockServer).descendant(at: rest)
        default: return nil
        }
    }

    public func rootValue() -> JSONValue {
        .object([
            JSONMember(key: "request", value: wholeRequest),
            JSONMember(key: "cache", value: environment.cache.snapshot),
            JSONMember(key: "call", value: .integer(Int64(call))),
            JSONMember(key: "now", value: .string(now)),
            JSONMember(key: "uuid", value: .string(uuid)),
            JSONMember(key: "mockServer", value: .string(environment.mockServer)),
        ])
    }

    /// `request.PART.NAME…`: a single name is looked up without building the whole part.
    private func request(_ path: ArraySlice<String>) -> JSONValue? {
        guard let part = path.first else { return wholeRequest }
        let rest = path.dropFirst()
        guard let name = rest.first else { return requestPart(part) }
        let value: String?
        switch part {
        case "headers": value = model.headerValues(name.lowercased()).first
        case "pathParameters": value = model.pathParameter(name)
        case "queryParameters": value = model.queryValues(name).first
        case "formParameters": value = model.formValues(name).first
        case "bodyJSON": return model.bodyTooLarge ? nil : model.bodyJSON?.descendant(at: rest)
        default: return requestPart(part)?.descendant(at: rest)
        }
        return value.map(JSONValue.string)?.descendant(at: rest.dropFirst())
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
        case "pathComponents": return .array(request.segments.segments.map(JSONValue.string))
        case "headers": return Self.firstValues(model.headers.map { ($0.name.lowercased(), $0.value) })
        case "pathParameters": return Self.firstValues(model.pathParameters.map { ($0.name, $0.value) })
        case "queryParameters": return Self.firstValues(model.queryParameters.fields.map { ($0.name, $0.value) })
        case "formParameters": return Self.firstValues(model.formParameters.fields.map { ($0.name, $0.value) })
        default: return nil
        }
    }

    /// An object of each name's first value, in order of first appearance.
    private static func firstValues(_ pairs: [(String, String)]) -> JSONValue {
        var members: [JSONMember] = []
        var seen = Set<String>()
        for (name, value) in pairs where seen.insert(name).inserted {
            members.append(JSONMember(key: name, value: .string(value)))
        }
        return .object(members)
    }
}
