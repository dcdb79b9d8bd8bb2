#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        guard let method = name.withUTF8({ HTTPMethod.spelled(by: $0, ignoringCase: true) }) else { return nil }
        self = method
    }

    /// The method of a request as the wire spells it (methods are case-sensitive in HTTP).
    public init?(requestMethod: String) {
        var requestMethod = requestMethod
        guard let method = requestMethod.withUTF8({ HTTPMethod.spelled(by: $0, ignoringCase: false) }) else {
            return nil
        }
        self = method
    }

    /// The same from libmicrohttpd's C string: for every request, so no String is made from it.
    public init?(requestMethod: UnsafePointer<CChar>) {
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(requestMethod).assumingMemoryBound(to: UInt8.self), count: strlen(requestMethod))
        guard let method = HTTPMethod.spelled(by: bytes, ignoringCase: false) else { return nil }
        self = method
    }

    /// `allCases` builds a new array at each use.
    private static let all = allCases

    /// The method whose name `text` spells, in capitals or, when `ignoringCase`, in any letter case.
    private static func spelled(by text: UnsafeBufferPointer<UInt8>, ignoringCase: Bool) -> HTTPMethod? {
        let lowerToUpper = UInt8(ascii: "a") - UInt8(ascii: "A")
        return all.first { method in
            var name = method.name
            return name.withUTF8 { upper in
                upper.count == text.count
                    && zip(upper, text).allSatisfy { upper, byte in
                        byte == upper || (ignoringCase && byte == upper + lowerToUpper)
                    }
            }
        }
    }

    public static func < (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool { lhs.name < rhs.name }
}
