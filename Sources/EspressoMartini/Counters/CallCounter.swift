import Synchronization

/// How many requests one exchange has answered. Taking the next position is a single atomic
/// add, so under any concurrency each position below the last is handed out exactly once.
public final class CallCounter: Sendable {
    private let calls = Atomic<Int>(0)

    public init() {}

    /// Counts this call and returns the response position for it: `min(n, count - 1)` for the n-th call.
    public func next(responseCount: Int) -> Int {
        min(nextCall() - 1, responseCount - 1)
    }

    /// Counts this call and returns its number, from 1.
    public func nextCall() -> Int {
        calls.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Counts this call and returns the response position `mode` gives the n-th call; nil when a `once`
    /// sequence is over (the call still counts).
    public func next(responseCount: Int, mode: SequenceMode) -> Int? {
        step(responseCount: responseCount, mode: mode).position
    }

    /// Counts this call (one atomic step) and returns its number, from 1, with the position `mode` gives it
    /// among `responseCount` responses; nil when a `once` sequence is over (the call still counts).
    public func step(responseCount: Int, mode: SequenceMode) -> (call: Int, position: Int?) {
        let call = nextCall()
        return (call, mode.position(forCall: call - 1, count: responseCount))
    }

    public var value: Int { calls.load(ordering: .relaxed) }

    public func reset() { calls.store(0, ordering: .relaxed) }
}
