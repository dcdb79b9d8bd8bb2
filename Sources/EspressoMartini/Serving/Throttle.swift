/// Paces a body at a bandwidth (doc/streams-and-networks.md): a token bucket that fills at
/// `bytesPerSecond` and holds at most `burst` bytes, about a twentieth of a second's worth, so that a
/// body goes out in small steps at an even rate. It starts full: the first bytes go at once. Times are
/// nanoseconds of a monotonic clock.
public struct Throttle: Sendable {
    public let bytesPerSecond: Double
    /// The most bytes that go out at once (1 to 16 KiB).
    public let burst: Int
    private var tokens: Double
    private var filled: UInt64?

    public init(bytesPerSecond: Double) {
        self.bytesPerSecond = bytesPerSecond
        burst = Int(min(16 * 1024, max(1, bytesPerSecond / 20)))
        tokens = Double(burst)
    }

    /// The bytes that may go out at `now`.
    public mutating func allowance(at now: UInt64) -> Int {
        if let filled, now > filled {
            tokens = min(Double(burst), tokens + bytesPerSecond * Double(now - filled) / 1_000_000_000)
        }
        filled = max(filled ?? now, now)
        return Int(tokens)
    }

    /// `count` bytes went out (at most the last allowance).
    public mutating func spend(_ count: Int) {
        tokens -= Double(count)
    }

    /// Seconds from the last allowance until `count` bytes (at most `burst`) may go.
    public func wait(for count: Int) -> Double {
        max(0, (Double(min(count, burst)) - tokens) / bytesPerSecond)
    }
}
