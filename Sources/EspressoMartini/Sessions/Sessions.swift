/// The named sessions (doc/faults-and-sessions.md), at most `capacity` of them: past that, the least recently used one is
/// forgotten (its counters and cache with it). A request holding a forgotten session finishes with it.
/// One short lock per lookup; the default session is not kept here.
public final class Sessions: Sendable {
    public let capacity: Int
    private let recent: Locked<RecentlyUsed<String, Session>>

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        recent = Locked(RecentlyUsed(capacity: max(1, capacity)))
    }

    /// The session named `name`, made now if it is not kept, and marked the most recently used. Any thread.
    public func session(named name: String) -> Session {
        recent.withLock { recent in
            if let session = recent.touch(name) { return session }
            let session = Session(name: name)
            recent.insert(session, for: name)
            return session
        }
    }

    /// The session named `name` if it is kept, without marking it used (the admin API).
    public func existing(named name: String) -> Session? {
        recent.withLock { $0.peek(name) }
    }

    /// How many sessions are kept (never more than `capacity`).
    public var count: Int { recent.withLock { $0.count } }

    /// Keeps only the counters of these exchanges in every session (a new tree is in service).
    public func retain(only exchanges: [Exchange]) {
        let sessions = recent.withLock { $0.values }
        guard !sessions.isEmpty else { return }
        var kept = Set<Exchange.CounterKey>()
        for exchange in exchanges {
            for index in 0..<exchange.counterCount { kept.insert(exchange.counterKey(index)) }
        }
        for session in sessions { session.retain(only: kept) }
    }
}
