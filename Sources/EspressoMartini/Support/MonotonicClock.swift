#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one clock for time that passes (delays, timers, timeouts, how long a request took): the system's
/// monotonic clock in nanoseconds, which a change of the date does not move. Dates are `Timestamp`'s.
public enum MonotonicClock {
    /// Now.
    @inline(__always)
    public static func now() -> UInt64 {
        read(CLOCK_MONOTONIC)
    }

    /// Now to the kernel's last tick (a few milliseconds), about five times cheaper than `now()`: for what is
    /// stamped on every step and compared with timeouts counted in seconds.
    @inline(__always)
    public static func coarseNow() -> UInt64 {
        read(CLOCK_MONOTONIC_COARSE)
    }

    /// `seconds` in nanoseconds, 0 for a negative number, at most about 31 years (a delay drawn from a long
    /// tail, or written huge, must not overflow the clock).
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(min(max(0, seconds), 1e9) * 1_000_000_000)
    }

    /// The nanoseconds from `start` to now.
    @inline(__always)
    public static func elapsed(since start: UInt64) -> UInt64 {
        now() &- start
    }

    @inline(__always)
    private static func read(_ clock: clockid_t) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
