/// A map of at most `capacity` values that forgets its least recently used one to make room: a
/// dictionary to slots of a doubly linked list kept in arrays, so every operation is O(1) and a slot
/// freed is reused. Not thread-safe: `Sessions` holds it under a lock.
struct RecentlyUsed<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var newer: Int
        var older: Int
    }

    let capacity: Int
    private var slots: [Slot] = []
    private var index: [Key: Int] = [:]
    /// The most and the least recently used slots, -1 when empty.
    private var newest = -1
    private var oldest = -1

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { index.count }

    /// Every value, most recently used first.
    var values: [Value] {
        var result: [Value] = []
        result.reserveCapacity(count)
        var slot = newest
        while slot >= 0 {
            result.append(slots[slot].value)
            slot = slots[slot].older
        }
        return result
    }

    /// The value for `key` without marking it used.
    func peek(_ key: Key) -> Value? {
        index[key].map { slots[$0].value }
    }

    /// The value for `key`, now the most recently used.
    mutating func touch(_ key: Key) -> Value? {
        guard let slot = index[key] else { return nil }
        unlink(slot)
        linkAsNewest(slot)
        return slots[slot].value
    }

    /// Adds `value` for `key` (not present) as the most recently used; when full, the least recently used
    /// goes and its slot takes the new one.
    mutating func insert(_ value: Value, for key: Key) {
        let slot: Int
        if index.count < capacity {
            slot = slots.count
            slots.append(Slot(key: key, value: value, newer: -1, older: -1))
        } else {
            slot = oldest
            unlink(slot)
            index[slots[slot].key] = nil
            slots[slot] = Slot(key: key, value: value, newer: -1, older: -1)
        }
        index[key] = slot
        linkAsNewest(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
    }

    private mutating func linkAsNewest(_ slot: Int) {
        slots[slot].newer = -1
        slots[slot].older = newest
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }
}
