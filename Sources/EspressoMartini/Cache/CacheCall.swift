/// One script call's use of a `PanRequestCache`: it takes the cache on its first read or write and keeps it
/// until the call ends. One thread.
public final class CacheCall {
    private let cache: PanRequestCache
    /// What the call sees: as published when it began, with its own changes.
    private var values: [String: JSONValue]?
    /// The keys it set (a value) or removed (nil).
    private var changes: [String: JSONValue?] = [:]

    init(cache: PanRequestCache) {
        self.cache = cache
    }

    private func begin() {
        if values == nil { values = cache.beginCall() }
    }

    func end() {
        if values != nil { cache.endCall(changes: changes) }
    }

    public func value(forKey key: String) -> JSONValue? {
        begin()
        return values?[key]
    }

    /// Stores `value` under `key`; nil removes the key.
    public func setValue(_ value: JSONValue?, forKey key: String) {
        begin()
        values?[key] = value
        changes[key] = .some(value)
    }

    /// The keys, in order.
    public var keys: [String] {
        begin()
        return values?.keys.sorted() ?? []
    }
}
