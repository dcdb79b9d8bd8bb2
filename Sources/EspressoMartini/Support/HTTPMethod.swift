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

    /// A folder name or a request method, case-insensitively. Compares bytes, without building an
    /// upper-cased copy: the loader asks this of every folder of the tree.
    public init?(name: String) {
        let length = name.utf8.count
        guard (3...7).contains(length),
              let method = HTTPMethod.allCases.first(where: { $0.name.utf8.count == length && $0.isSpelled(by: name) }) else { return nil }
        self = method
    }

    /// Whether `text` is this method's name in any letter case.
    private func isSpelled(by text: String) -> Bool {
        let lowerToUpper = UInt8(ascii: "a") - UInt8(ascii: "A")
        return zip(name.utf8, text.utf8).allSatisfy { upper, byte in byte == upper || byte == upper + lowerToUpper }
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
