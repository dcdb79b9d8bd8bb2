/// A request path split into segments: empty segments (`//`, a trailing `/`) are dropped.
public struct RequestPath: Sendable, Equatable {
    public let segments: [String]
    /// True when some segment is `.` or `..`, which is answered `400`.
    public let hasDotSegment: Bool

    /// `path` is already percent-decoded (libmicrohttpd decodes it), so `%2e%2e` arrives here as `..`.
    public init(_ path: String) {
        var segments: [String] = []
        var dot = false
        for part in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            let segment = String(decoding: part, as: UTF8.self)
            if segment == "." || segment == ".." { dot = true }
            segments.append(segment)
        }
        self.segments = segments
        self.hasDotSegment = dot
    }
}
