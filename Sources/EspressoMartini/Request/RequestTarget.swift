/// A request target as a client writes it on the request line (`/users/42?page=2`), read as the server
/// reads it: the path percent-decoded the way libmicrohttpd decodes it (`%HH` only, `+` kept, a `%` not
/// followed by two hex digits kept as is, the path ending at a decoded NUL), the query kept raw.
public struct RequestTarget: Sendable, Equatable {
    /// Percent-decoded, without the query.
    public let path: String
    /// The path as the server splits it: before decoding each segment, so that `%2F` stays in its segment.
    public let segments: RequestPath
    /// Without `?`, not decoded; `""` when there is none.
    public let rawQuery: String

    public init(_ target: String) {
        let bytes = Array(target.utf8)
        let mark = bytes.firstIndex(of: UInt8(ascii: "?"))
        path = Self.decodePath(bytes[..<(mark ?? bytes.endIndex)])
        segments = RequestPath(sent: bytes[..<(mark ?? bytes.endIndex)])
        rawQuery = mark.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) } ?? ""
    }

    private static func decodePath(_ bytes: ArraySlice<UInt8>) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        _ = RequestPath.percentDecode(bytes, into: &decoded)
        return String(decoding: decoded, as: UTF8.self)
    }
}
