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
    /// A switch, not a search of `allCases`: this runs for every request.
    public init?(requestMethod: String) {
        switch requestMethod {
        case "GET": self = .get
        case "HEAD": self = .head
        case "POST": self = .post
        case "PUT": self = .put
        case "PATCH": self = .patch
        case "DELETE": self = .delete
        case "OPTIONS": self = .options
        case "TRACE": self = .trace
        case "CONNECT": self = .connect
        default: return nil
        }
    }

    public static func < (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool { lhs.name < rhs.name }
}
