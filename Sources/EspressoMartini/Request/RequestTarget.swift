/// A request target as a client writes it on the request line (`/users/42?page=2`), read as the server
/// reads it: the path percent-decoded the way libmicrohttpd decodes it (`%HH` only, `+` kept, a `%` not
/// followed by two hex digits kept as is, the path ending at a decoded NUL), the query kept raw.
public struct RequestTarget: Sendable, Equatable {
    /// Percent-decoded, without the query.
    public let path: String
    /// Without `?`, not decoded; `""` when there is none.
    public let rawQuery: String

    public init(_ target: String) {
        let bytes = Array(target.utf8)
        let mark = bytes.firstIndex(of: UInt8(ascii: "?"))
        path = Self.decodePath(bytes[..<(mark ?? bytes.endIndex)])
        rawQuery = mark.map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) } ?? ""
    }

    private static func decodePath(_ bytes: ArraySlice<UInt8>) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%"), bytes.endIndex - index >= 3,
                let high = URLEncodedForm.hexValue(bytes[index + 1]),
                let low = URLEncodedForm.hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        // The server reads the decoded path as a C string: it ends at the first NUL.
        return String(decoding: decoded.prefix { $0 != 0 }, as: UTF8.self)
    }
}
