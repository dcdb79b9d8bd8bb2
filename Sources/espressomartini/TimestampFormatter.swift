import EspressoMartini

/// ISO 8601 timestamps for log lines, with the date and time up to the second formatted once per
/// second rather than once per line (the access log writes one per request).
final class TimestampFormatter: Sendable {
    private let cached = Locked((seconds: -1, prefix: [UInt8]()))

    /// Appends `2026-11-22T10:15:30.123Z` to `bytes`, without making a string.
    func append(to bytes: inout [UInt8]) {
        let now = Timestamp.now
        cached.withLock { cached in
            if cached.seconds != now.seconds {
                cached = (now.seconds, Array(now.iso8601.utf8.prefix(19)))  // without ".mmmZ"
            }
            bytes.append(contentsOf: cached.prefix)
        }
        let milliseconds = now.nanoseconds / 1_000_000
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(milliseconds % 10))
        bytes.append(UInt8(ascii: "Z"))
    }
}
