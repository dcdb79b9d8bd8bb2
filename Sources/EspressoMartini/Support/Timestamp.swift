#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A wall-clock instant, cheap to take on the request path and formatted only when shown.
public struct Timestamp: Sendable, Equatable {
    public let seconds: Int
    public let nanoseconds: Int

    public init(seconds: Int, nanoseconds: Int) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    public static var now: Timestamp {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Timestamp(seconds: Int(now.tv_sec), nanoseconds: Int(now.tv_nsec))
    }

    /// ISO 8601 in UTC with milliseconds, `2026-11-22T10:15:30.123Z`.
    public var iso8601: String {
        var parts = tm()
        var seconds = time_t(self.seconds)
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliseconds = nanoseconds / 1_000_000
        let fraction =
            milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }
}
