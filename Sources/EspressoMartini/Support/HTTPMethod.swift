/// The methods a method folder can name.
public enum HTTPMethod: Int, Sendable, CaseIterable, Comparable {
    case get, head, post, put, patch, delete, options, trace, connect

    public var name: String {
        switch self {
        case .get: "GET"
        case .head: "HEAD"
        case .post: "POST"
        case .put: "PUT"
        case .patch: "PATCH"
        case .delete: "DELETE"
        case .options: "OPTIONS"
        case .trace: "TRACE"
        case .connect: "CONNECT"
        }
    }

    /// A folder name or a request method, case-insensitively.
    public init?(name: String) {
        guard let method = HTTPMethod.allCases.first(where: { $0.name == name.uppercased() }) else { return nil }
        self = method
    }

    /// The method of a request as the wire spells it (methods are case-sensitive in HTTP).
    public init?(requestMethod: String) {
        guard let method = HTTPMethod.allCases.first(where: { $0.name == requestMethod }) else { return nil }
        self = method
    }

    public static func < (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool { lhs.name < rhs.name }
}
