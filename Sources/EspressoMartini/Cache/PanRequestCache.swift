/// The pan-request cache: JSON values by key, shared by every script and template of one session, empty at
/// start, kept across reloads (doc/scripts.md). A script call uses it through `withCall`: from the call's
/// first use until it returns it has the cache to itself (`CacheCall`), so a read-modify-write such as
/// `cache.n = (cache.n ?? 0) + 1` from parallel requests loses no update. Its changes are published when
/// the call ends. Templates and the admin API read what was last published, under a short lock that no
/// script call holds while it runs: no thread answering HTTP ever waits for a script.
public final class PanRequestCache: @unchecked Sendable {
    /// What was last published.
    private let published = Locked<[String: JSONValue]>([:])
    /// Held by one script call at a time, from its first use of the cache until it ends.
    private let calls = PthreadMutex()

    public init() {}

    /// Runs `body` as one call that may use the cache (through the `CacheCall` it gets, on this thread
    /// only); what the call changed is published when `body` returns.
    public func withCall<Result>(_ body: (CacheCall) throws -> Result) rethrows -> Result {
        let call = CacheCall(cache: self)
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

    /// Takes the cache for a call: what is published then is what the call starts from.
    func beginCall() -> [String: JSONValue] {
        calls.lock()
        return published.withLock { $0 }
    }

    /// Publishes a call's changes (a nil value removes its key) and lets the next call in.
    func endCall(changes: [String: JSONValue?]) {
        published.withLock { values in
            for (key, value) in changes { values[key] = value }
        }
        calls.unlock()
    }
}
