/// Every exchange's call counter, kept apart from the immutable trees so that a reload can hand the
/// same counter to the new tree's exchange with the same method and route: counts survive reloads.
public final class CallCounters: Sendable {
    /// The counters by key, plus the last batch handed out and not yet filed by key: the first tree's
    /// counters are made without hashing a single key (which counts at start-up with thousands of
    /// exchanges), and filed only when a reload or a lookup needs them.
    private struct Table {
        var byKey: [Exchange.Key: CallCounter] = [:]
        var unfiled: [(key: Exchange.Key, counter: CallCounter)] = []

        mutating func fileUnfiled() {
            guard !unfiled.isEmpty else { return }
            byKey.reserveCapacity(byKey.count + unfiled.count)
            for (key, counter) in unfiled { byKey[key] = counter }
            unfiled = []
        }
    }

    private let table = Locked(Table())

    public init() {}

    /// The counter for `key` (see `Exchange.counterKey`), created at 0 the first time.
    public func counter(for key: Exchange.Key) -> CallCounter {
        counters(for: [key])[0]
    }

    /// The counters for all these keys (a tree's worth at a time, no two alike), under one lock.
    public func counters(for keys: [Exchange.Key]) -> [CallCounter] {
        table.withLock { table in
            table.fileUnfiled()
            let counters = keys.map { key in table.byKey[key] ?? CallCounter() }
            table.unfiled = Array(zip(keys, counters))
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
