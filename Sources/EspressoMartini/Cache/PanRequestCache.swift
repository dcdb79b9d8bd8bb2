/// The pan-request cache of §12: JSON values by key, shared by every script and template of one session,
/// empty at start, kept across reloads. A JavaScript call holds it from its first use until it returns
/// (`acquire` … `release`), so a read-modify-write such as `cache.n = (cache.n ?? 0) + 1` from parallel
/// requests loses no update; a template reads one value at a time.
public final class PanRequestCache: @unchecked Sendable {
    private let mutex = PthreadMutex()
    /// Guarded by `mutex`. Keys kept apart from the dictionary would only serve the admin listing, which sorts.
    private var values: [String: JSONValue] = [:]

    public init() {}

    /// Takes the cache for the rest of one call; pair with `release`. While held, `heldValue(forKey:)`,
    /// `setHeldValue(_:forKey:)` and `heldKeys` read and change it.
    public func acquire() {
        mutex.lock()
    }

    public func release() {
        mutex.unlock()
    }

    /// Only between `acquire` and `release`.
    public func heldValue(forKey key: String) -> JSONValue? {
        values[key]
    }

    /// Only between `acquire` and `release`. `nil` removes the key.
    public func setHeldValue(_ value: JSONValue?, forKey key: String) {
        values[key] = value
    }

    /// Only between `acquire` and `release`, in key order.
    public var heldKeys: [String] {
        values.keys.sorted()
    }

    /// One value, read under the lock (templates).
    public func value(forKey key: String) -> JSONValue? {
        mutex.lock()
        defer { mutex.unlock() }
        return values[key]
    }

    /// The whole cache as one JSON object, keys in order (`GET /__espressomartini/cache`).
    public var snapshot: JSONValue {
        mutex.lock()
        defer { mutex.unlock() }
        return .object(values.keys.sorted().map { JSONMember(key: $0, value: values[$0]!) })
    }

    /// Empties it (`DELETE /__espressomartini/cache`).
    public func removeAll() {
        mutex.lock()
        defer { mutex.unlock() }
        values.removeAll()
    }
}
