/// One script call's use of a `PanRequestCache`: it takes the cache on its first read or write and keeps it
/// until the call ends. One thread.
public final class CacheCall {
    private let cache: PanRequestCache
    private let onReceivingThread: Bool
    /// What the call sees: as published when it began, with its own changes.
    private var values: [String: JSONValue]?
    /// The keys it set (a value) or removed (nil).
    private var changes: [String: JSONValue?] = [:]
    /// The call runs on the thread that received its request and found the cache taken by a call that
    /// may run long: it must not wait, and gives up (its reads find nothing, its writes are dropped).
    public private(set) var gaveUp = false

    init(cache: PanRequestCache, onReceivingThread: Bool) {
        self.cache = cache
        self.onReceivingThread = onReceivingThread
    }

    private func begin() {
        guard values == nil, !gaveUp else { return }
        values = cache.beginCall(onReceivingThread: onReceivingThread)
        gaveUp = values == nil
    }

    func end() {
        if values != nil { cache.endCall(changes: changes) }
    }

    /// Drops the call's changes: when it ends, it publishes nothing.
    public func discard() {
        changes.removeAll()
    }

    public func value(forKey key: String) -> JSONValue? {
        begin()
        return values?[key]
    }

    /// Stores `value` under `key`; nil removes the key.
    public func setValue(_ value: JSONValue?, forKey key: String) {
        begin()
        guard values != nil else { return }
        values?[key] = value
        changes[key] = .some(value)
    }

    /// The keys, in order.
    public var keys: [String] {
        begin()
        return values?.keys.sorted() ?? []
    }
}
