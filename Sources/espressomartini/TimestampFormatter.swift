import EspressoMartini

/// ISO 8601 timestamps for log lines, with the date and time up to the second formatted once per
/// second rather than once per line (the access log writes one per request).
final class TimestampFormatter: Sendable {
    private let cached = Locked((seconds: -1, prefix: ""))

    /// `2026-11-22T10:15:30.123Z`
    func current() -> String {
        let now = Timestamp.now
        let prefix = cached.withLock { cached in
            if cached.seconds != now.seconds {
                let formatted = now.iso8601
                cached = (now.seconds, String(formatted.prefix(19)))  // without ".mmmZ"
            }
            return cached.prefix
        }
        let milliseconds = now.nanoseconds / 1_000_000
        return prefix + (milliseconds < 10 ? ".00" : milliseconds < 100 ? ".0" : ".") + String(milliseconds) + "Z"
    }
}
