/// Every exchange's call counter, kept apart from the immutable trees so that a reload can hand the
/// same counter to the new tree's exchange with the same method and route: counts survive reloads.
public final class CallCounters: Sendable {
    /// The counters by key, plus the last tree's exchanges and counters, not yet filed by key: the first
    /// tree's counters are made without hashing a single key (which counts at start-up with thousands
    /// of exchanges) and filed only when a reload needs them. The arrays are the tree's own, shared.
    private struct Table {
        var byKey: [Exchange.Key: CallCounter] = [:]
        var unfiled: (exchanges: [Exchange], counters: [CallCounter]) = ([], [])

        mutating func fileUnfiled() {
            guard !unfiled.exchanges.isEmpty else { return }
            byKey.reserveCapacity(byKey.count + unfiled.exchanges.count)
            for (exchange, counter) in zip(unfiled.exchanges, unfiled.counters) { byKey[exchange.counterKey] = counter }
            unfiled = ([], [])
        }
    }

    private let table = Locked(Table())

    public init() {}

    /// The counters of these exchanges (a tree's, no two with the same key), in the same order; a
    /// counter is created at 0 for a key seen for the first time.
    public func counters(for exchanges: [Exchange]) -> [CallCounter] {
        table.withLock { table in
            table.fileUnfiled()
            let counters = exchanges.map { table.byKey.isEmpty ? CallCounter() : table.byKey[$0.counterKey] ?? CallCounter() }
            table.unfiled = (exchanges, counters)
            return counters
        }
    }

    /// Keeps only the counters of these keys (those of the tree now in service), so removed exchanges
    /// start again from 0 if they come back.
    public func retain(only keys: Set<Exchange.Key>) {
        table.withLock { table in
            table.fileUnfiled()
            table.byKey = table.byKey.filter { keys.contains($0.key) }
        }
    }

    public func resetAll() {
        table.withLock { table in
            table.fileUnfiled()
            table.byKey.values.forEach { $0.reset() }
        }
    }
}
