/// The last `capacity` requests, oldest first: a ring buffer behind one short lock.
public final class RequestJournal: Sendable {
    public static let defaultCapacity = 1000

    private struct Ring {
        var entries: [JournalEntry] = []
        var next = 0
    }

    private let capacity: Int
    private let ring = Locked(Ring())

    public init(capacity: Int = RequestJournal.defaultCapacity) {
        self.capacity = capacity
    }

    /// Records `entry` with the headers `packHeaders` appends (packed as `JournalEntry.packedHeaders`).
    /// Once the ring is full, they go into the buffer of the entry they replace, so that recording a
    /// request allocates nothing and frees nothing.
    public func record(_ entry: consuming JournalEntry, packingHeaders packHeaders: (inout [UInt8]) -> Void) {
        var entry = consume entry
        ring.withLock { ring in
            if ring.entries.count < capacity {
                packHeaders(&entry.packedHeaders)
                ring.entries.append(entry)
            } else {
                swap(&entry.packedHeaders, &ring.entries[ring.next].packedHeaders)
                entry.packedHeaders.removeAll(keepingCapacity: true)
                packHeaders(&entry.packedHeaders)
                swap(&entry, &ring.entries[ring.next])  // the entry replaced is released after the lock
            }
            ring.next = (ring.next + 1) % capacity
        }
    }

    /// Oldest first.
    public var entries: [JournalEntry] {
        ring.withLock { ring in
            guard ring.entries.count == capacity else { return ring.entries }
            return Array(ring.entries[ring.next...] + ring.entries[..<ring.next])
        }
    }

    public func clear() {
        ring.withLock { $0 = Ring() }
    }

    /// Forgets the entries of the session named `session` only (nil: the default session's), keeping
    /// the others in order.
    public func clear(session: String?) {
        ring.withLock { ring in
            let ordered = ring.entries.count == capacity ? Array(ring.entries[ring.next...] + ring.entries[..<ring.next]) : ring.entries
            ring.entries = ordered.filter { $0.session != session }
            ring.next = ring.entries.count % capacity
        }
    }
}
