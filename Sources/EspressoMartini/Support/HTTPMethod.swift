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
    public init?(requestMethod: String) {
        var requestMethod = requestMethod
        guard let method = requestMethod.withUTF8(HTTPMethod.init(requestMethodBytes:)) else { return nil }
        self = method
    }

    /// The same from libmicrohttpd's C string: for every request, so no String is made from it.
    public init?(requestMethod: UnsafePointer<CChar>) {
        let bytes = UnsafeRawPointer(requestMethod).assumingMemoryBound(to: UInt8.self)
        guard let method = HTTPMethod(requestMethodBytes: UnsafeBufferPointer(start: bytes, count: strlen(requestMethod))) else { return nil }
        self = method
    }

    private init?(requestMethodBytes bytes: UnsafeBufferPointer<UInt8>) {
        for method in HTTPMethod.all {
            var name = method.name
            if name.withUTF8({ $0.count == bytes.count && memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                self = method
                return
            }
        }
        return nil
    }

    public static func < (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool { lhs.name < rhs.name }
}
