#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request path split into segments: empty segments (`//`, a trailing `/`) are dropped. The segments
/// are ranges of the path's bytes, made into strings only when asked for (`segments`): routing reads
/// them in place, for every request.
public struct RequestPath: Sendable {
    private let path: String
    /// Where each segment lies in the path's UTF-8 bytes.
    private let ranges: [Range<Int>]
    /// True when some segment is `.` or `..`, which is answered `400`.
    public let hasDotSegment: Bool

    /// `path` is already percent-decoded (libmicrohttpd decodes it), so `%2e%2e` arrives here as `..`.
    /// Split on the byte `/` in one pass, into an array sized up front.
    public init(_ path: String) {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var ranges: [Range<Int>] = []
        var hasDotSegment = false
        var bytes = path
        bytes.withUTF8 { bytes in
            ranges.reserveCapacity(bytes.reduce(1) { $1 == slash ? $0 + 1 : $0 })
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == slash {
                defer { start = end + 1 }
                guard end > start else { continue }
                if end - start <= 2, bytes[start..<end].allSatisfy({ $0 == dot }) { hasDotSegment = true }
                ranges.append(start..<end)
            }
        }
        self.path = path
        self.ranges = ranges
        self.hasDotSegment = hasDotSegment
    }

    /// The segments as strings, for the admin API and messages.
    public var segments: [String] {
        withSegments { segments in (0..<segments.count).map { String(decoding: segments[$0], as: UTF8.self) } }
    }

    /// Whether the first segment is `name`, without making a string of it.
    public func startsWith(segment name: StaticString) -> Bool {
        guard let first = ranges.first, first.count == name.utf8CodeUnitCount else { return false }
        return withSegments { memcmp($0[0].baseAddress!, name.utf8Start, first.count) == 0 }
    }

    /// Calls `body` with the segments' bytes, valid only during the call.
    func withSegments<Result>(_ body: (Segments) -> Result) -> Result {
        var path = path
        return path.withUTF8 { body(Segments(bytes: $0, ranges: ranges)) }
    }

    /// The segments of a path as slices of its bytes.
    struct Segments {
        let bytes: UnsafeBufferPointer<UInt8>
        let ranges: [Range<Int>]

        var count: Int { ranges.count }

        subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: bytes[ranges[index]])
        }
    }
}
