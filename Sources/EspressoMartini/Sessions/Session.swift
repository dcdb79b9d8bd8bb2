/// One test run's state (doc/faults-and-sessions.md): its own call counters and its own pan-request cache, apart from the
/// default session's (held by `TreeService`). Counters are made only for the exchanges (and variants) the
/// session calls, so a session costs little on a large tree. Keyed like `CallCounters`, by method, route and
/// variant position, so they survive reloads for exchanges that still exist.
public final class Session: Sendable {
    public let name: String
    public let cache = PanRequestCache()
    private let counters = Locked<[Exchange.CounterKey: CallCounter]>([:])

    public init(name: String) {
        self.name = name
    }

    /// The counter under `key`, made at 0 on the session's first call to it. Any thread.
    public func counter(for key: Exchange.CounterKey) -> CallCounter {
        counters.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CallCounter()
            counters[key] = counter
            return counter
        }
    }

    /// The counter under `key`, nil when the session never called it. Any thread.
    public func existingCounter(for key: Exchange.CounterKey) -> CallCounter? {
        counters.withLock { $0[key] }
    }

    /// Calls counted so far under `key`; 0 when the session never called it.
    public func calls(for key: Exchange.CounterKey) -> Int {
        counters.withLock { $0[key]?.value ?? 0 }
    }

    /// How many counters the session holds: one per exchange (or variant) it has called.
    public var counterCount: Int { counters.withLock { $0.count } }

    /// Every counter back to 0.
    public func resetAll() {
        counters.withLock { $0.values.forEach { $0.reset() } }
    }

    /// Keeps only the counters whose key is in `kept` (a new tree's), as the default session does.
    func retain(only kept: Set<Exchange.CounterKey>) {
        counters.withLock { counters in counters = counters.filter { kept.contains($0.key) } }
    }
}
