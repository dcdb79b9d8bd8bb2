#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A request path split into segments: empty segments (`//`, a trailing `/`) are dropped. The segments
/// are ranges of the path's bytes, made into strings only when asked for (`segments`): routing reads
/// them in place, for every request. A segment may hold a `/`: the path as sent is split before each
/// segment is decoded, so `%2F` is data inside its segment (RFC 3986), as in `refs/heads%2Fmain`.
public struct RequestPath: Sendable, Equatable {
    private let path: String
    /// Where each segment lies in the path's UTF-8 bytes.
    private let ranges: [Range<Int>]
    /// True when some segment is `.` or `..`, which is answered `400`.
    public let hasDotSegment: Bool

    /// `path` is already percent-decoded (libmicrohttpd decodes it), so `%2e%2e` arrives here as `..`:
    /// right for every path sent without `%2F` (see `init(sent:)`). Split on the byte `/` in one pass, into
    /// an array sized up front.
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

    /// The path as sent (the request target's path, not decoded): split on `/`, then each segment
    /// percent-decoded the way libmicrohttpd decodes (`%HH` only, a `%` not followed by two hex digits kept,
    /// the path ending at a decoded NUL). A decoded segment `.` or `..` is still refused.
    public init(sent: some Collection<UInt8>) {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var path = ""
        var ranges: [Range<Int>] = []
        var hasDotSegment = false
        var segment: [UInt8] = []
        for part in sent.split(separator: slash, omittingEmptySubsequences: true) {
            segment.removeAll(keepingCapacity: true)
            let endsPath = Self.percentDecode(part, into: &segment)
            if !segment.isEmpty {
                if segment.count <= 2, segment.allSatisfy({ $0 == dot }) { hasDotSegment = true }
                if !path.isEmpty { path += "/" }
                let start = path.utf8.count
                path += String(decoding: segment, as: UTF8.self)
                ranges.append(start..<path.utf8.count)
            }
            if endsPath { break }
        }
        self.path = path
        self.ranges = ranges
        self.hasDotSegment = hasDotSegment
    }

    /// Appends `bytes` percent-decoded to `decoded` as libmicrohttpd decodes a path: `%HH` only, `+` kept,
    /// a `%` not followed by two hex digits kept as is. Stops before a decoded NUL and returns true there:
    /// the server reads the decoded path as a C string, which ends at it.
    static func percentDecode(_ bytes: some Collection<UInt8>, into decoded: inout [UInt8]) -> Bool {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            var byte = bytes[index]
            var next = bytes.index(after: index)
            if byte == UInt8(ascii: "%"), next != bytes.endIndex, bytes.index(after: next) != bytes.endIndex,
                let high = URLEncodedForm.hexValue(bytes[next]),
                let low = URLEncodedForm.hexValue(bytes[bytes.index(after: next)])
            {
                byte = high << 4 | low
                next = bytes.index(next, offsetBy: 2)
            }
            if byte == 0 { return true }
            decoded.append(byte)
            index = next
        }
        return false
    }

    public static func == (lhs: RequestPath, rhs: RequestPath) -> Bool {
        lhs.segments == rhs.segments
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
