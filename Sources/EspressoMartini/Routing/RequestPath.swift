/// A request path split into segments: empty segments (`//`, a trailing `/`) are dropped.
public struct RequestPath: Sendable, Equatable {
    public let segments: [String]
    /// True when some segment is `.` or `..`, which is answered `400`.
    public let hasDotSegment: Bool

    /// `path` is already percent-decoded (libmicrohttpd decodes it), so `%2e%2e` arrives here as `..`.
    /// Split on the byte `/` in one pass, into an array sized up front: this runs for every request.
    public init(_ path: String) {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var segments: [String] = []
        var hasDotSegment = false
        var path = path
        path.withUTF8 { bytes in
            segments.reserveCapacity(bytes.reduce(1) { $1 == slash ? $0 + 1 : $0 })
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == slash {
                defer { start = end + 1 }
                guard end > start else { continue }
                let segment = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if segment.count <= 2, segment.allSatisfy({ $0 == dot }) { hasDotSegment = true }
                segments.append(String(decoding: segment, as: UTF8.self))
            }
        }
        self.segments = segments
        self.hasDotSegment = hasDotSegment
    }
}
