
/// Every exchange's call counter, kept apart from the immutable trees so that a reload can hand the
/// same counter to the new tree's exchange with the same method and route: counts survive reloads.
public final class CallCounters: Sendable {
    private let counters = Locked<[Exchange.Key: CallCounter]>([:])

    public init() {}

    /// The counter for `key` (see `Exchange.counterKey`), created at 0 the first time.
    public func counter(for key: Exchange.Key) -> CallCounter {
        counters(for: [key])[0]
    }

    /// The counters for all these keys, under one lock (a tree's worth at a time).
    public func counters(for keys: [Exchange.Key]) -> [CallCounter] {
        counters.withLock { counters in
            keys.map { key in
                if let existing = counters[key] { return existing }
                let created = CallCounter()
                counters[key] = created
                return created
            }
        }
    }

    /// Keeps only the counters of these keys (those of the tree now in service), so removed exchanges
    /// start again from 0 if they come back.
    public func retain(only keys: Set<Exchange.Key>) {
        counters.withLock { counters in counters = counters.filter { keys.contains($0.key) } }
    }

    public func resetAll() {
        counters.withLock { counters in counters.values.forEach { $0.reset() } }
    }
}
