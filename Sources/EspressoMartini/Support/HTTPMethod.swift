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
        var name = name
        guard let method = name.withUTF8({ bytes in HTTPMethod.all.first { $0.isSpelled(by: bytes) } }) else { return nil }
        self = method
    }

    /// `allCases` builds a new array at each use.
    private static let all = allCases

    /// Whether `text` is this method's name in any letter case.
    private func isSpelled(by text: UnsafeBufferPointer<UInt8>) -> Bool {
        let lowerToUpper = UInt8(ascii: "a") - UInt8(ascii: "A")
        var name = name
        return name.withUTF8 { upper in
            upper.count == text.count && zip(upper, text).allSatisfy { upper, byte in byte == upper || byte == upper + lowerToUpper }
        }
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
