
/// Every exchange's call counter, kept apart from the immutable trees so that a reload can hand the
/// same counter to the new tree's exchange with the same method and route: counts survive reloads.
public final class CallCounters: Sendable {
    private let counters = Locked<[String: CallCounter]>([:])

    public init() {}

    /// The counter for `key` (see `Exchange.counterKey`), created at 0 the first time.
    public func counter(for key: String) -> CallCounter {
        counters.withLock { counters in
            if let existing = counters[key] { return existing }
            let created = CallCounter()
            counters[key] = created
            return created
        }
    }

    /// Keeps only the counters of these keys (those of the tree now in service), so removed exchanges
    /// start again from 0 if they come back.
    public func retain(only keys: Set<String>) {
        counters.withLock { counters in counters = counters.filter { keys.contains($0.key) } }
    }

    public func resetAll() {
        counters.withLock { counters in counters.values.forEach { $0.reset() } }
    }
}
