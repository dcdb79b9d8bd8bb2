/// Every exchange's call counters (one, or one per variant), kept apart from the immutable trees so that
/// a reload can hand the same counter to the new tree's exchange with the same method, route and variant
/// position: counts survive reloads.
public final class CallCounters: Sendable {
    /// The counters by key, plus the last tree's exchanges and counters, not yet filed by key: the first
    /// tree's counters are made without hashing a single key (which counts at start-up with thousands
    /// of exchanges) and filed only when a reload needs them. The arrays are the tree's own, shared.
    private struct Table {
        var byKey: [Exchange.CounterKey: CallCounter] = [:]
        var unfiled: (exchanges: [Exchange], counters: [CallCounter]) = ([], [])

        mutating func fileUnfiled() {
            guard !unfiled.exchanges.isEmpty else { return }
            byKey.reserveCapacity(byKey.count + unfiled.counters.count)
            var next = 0
            for exchange in unfiled.exchanges {
                for index in 0..<exchange.counterCount {
                    byKey[exchange.counterKey(index)] = unfiled.counters[next]
                    next += 1
                }
            }
            unfiled = ([], [])
        }
    }

    private let table = Locked(Table())

    public init() {}

    /// The counters of these exchanges (a tree's, no two with the same key): each exchange's
    /// `counterCount` counters in turn, in the exchanges' order. A counter is created at 0 for a key seen
    /// for the first time.
    public func counters(for exchanges: [Exchange]) -> [CallCounter] {
        table.withLock { table in
            table.fileUnfiled()
            var counters: [CallCounter] = []
            counters.reserveCapacity(exchanges.count)
            for exchange in exchanges {
                for index in 0..<exchange.counterCount {
                    counters.append(
                        table.byKey.isEmpty ? CallCounter() : table.byKey[exchange.counterKey(index)] ?? CallCounter())
                }
            }
            table.unfiled = (exchanges, counters)
            return counters
        }
    }

    /// Keeps only the counters of these exchanges (those of the tree now in service), so removed
    /// exchanges and variants start again from 0 if they come back.
    public func retain(only exchanges: [Exchange]) {
        table.withLock { table in
            table.fileUnfiled()
            var kept = Set<Exchange.CounterKey>()
            for exchange in exchanges {
                for index in 0..<exchange.counterCount { kept.insert(exchange.counterKey(index)) }
            }
            table.byKey = table.byKey.filter { kept.contains($0.key) }
        }
    }

    /// The counter of `key`, if one is kept (the tree in service's, a runtime exchange's).
    public func existing(for key: Exchange.CounterKey) -> CallCounter? {
        table.withLock { table in
            table.fileUnfiled()
            return table.byKey[key]
        }
    }

    public func resetAll() {
        table.withLock { table in
            table.fileUnfiled()
            table.byKey.values.forEach { $0.reset() }
        }
    }
}
