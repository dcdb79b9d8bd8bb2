import EspressoMartini

/// ISO 8601 timestamps for log lines, with the date and time up to the second formatted once per
/// second rather than once per line (the access log writes one per request).
final class TimestampFormatter: Sendable {
    /// `2026-11-22T10:15:30.123Z`
    static let length = 24

    private let cached = Locked((seconds: -1, prefix: [UInt8]()))

    /// Appends the current time, without making a string.
    func append(to line: inout LineBuffer) {
        let now = Timestamp.now
        cached.withLock { cached in
            if cached.seconds != now.seconds {
                cached = (now.seconds, Array(now.iso8601.utf8.prefix(19)))  // without ".mmmZ"
            }
            cached.prefix.withUnsafeBufferPointer { line.append($0) }
        }
        line.append(UInt8(ascii: "."))
        line.appendDecimal(now.nanoseconds / 1_000_000, digits: 3)
        line.append(UInt8(ascii: "Z"))
    }
}
