/// The pan-request cache: JSON values by key, shared by every script and template of one session, empty at
/// start, kept across reloads (doc/scripts.md). A script call uses it through `withCall`: from the call's
/// first use until it returns it has the cache to itself (`CacheCall`), so a read-modify-write such as
/// `cache.n = (cache.n ?? 0) + 1` from parallel requests loses no update. Its changes are published when
/// the call ends. Templates and the admin API read what was last published, under a short lock that no
/// script call holds while it runs. A call on a thread that answers HTTP waits only behind another such
/// call (which is short), never behind one on a script thread (which may run for its whole timeout).
public final class PanRequestCache: @unchecked Sendable {
    /// What was last published.
    private let published = Locked<[String: JSONValue]>([:])
    /// Whether a script call holds the cache (one at a time, from its first use until it ends), and
    /// whether it runs on a thread that answers HTTP.
    private let holder = Monitor<(held: Bool, onReceivingThread: Bool)>((false, false))

    public init() {}

    /// Runs `body` as one call that may use the cache (through the `CacheCall` it gets, on this thread
    /// only); what the call changed is published when `body` returns. `onReceivingThread`: the call runs on
    /// a thread that answers HTTP, and gives up rather than wait behind a call on a script thread.
    public func withCall<Result>(
        onReceivingThread: Bool = false, _ body: (CacheCall) throws -> Result
    ) rethrows -> Result {
        let call = CacheCall(cache: self, onReceivingThread: onReceivingThread)
        defer { call.end() }
        return try body(call)
    }

    /// One value, as last published (templates).
    public func value(forKey key: String) -> JSONValue? {
        published.withLock { $0[key] }
    }

    /// The whole cache as one JSON object, keys in order (`GET /__espressomartini/cache`).
    public var snapshot: JSONValue {
        let values = published.withLock { $0 }
        return .object(values.keys.sorted().map { JSONMember(key: $0, value: values[$0]!) })
    }

    /// Empties it (`DELETE /__espressomartini/cache`). A script call under way publishes its own changes
    /// over the empty cache when it ends.
    public func removeAll() {
        published.withLock { $0.removeAll() }
    }

    /// Takes the cache for a call, waiting for the call that holds it: what is published then is what the
    /// call starts from. Nil for a call on the receiving thread when a call on a script thread holds it.
    func beginCall(onReceivingThread: Bool) -> [String: JSONValue]? {
        var taken = true
        holder.wait { holder in
            if !holder.held {
                holder = (true, onReceivingThread)
                return true
            }
            if onReceivingThread && !holder.onReceivingThread {
                taken = false
                return true
            }
            return false
        }
        return taken ? published.withLock { $0 } : nil
    }

    /// Publishes a call's changes (a nil value removes its key) and lets the next call in: every waiting
    /// call looks again, so that one on the receiving thread sees at once when a script thread's call took it.
    func endCall(changes: [String: JSONValue?]) {
        if !changes.isEmpty {
            published.withLock { values in
                for (key, value) in changes { values[key] = value }
            }
        }
        holder.withLock { $0.held = false }
        holder.broadcast()
    }
}
