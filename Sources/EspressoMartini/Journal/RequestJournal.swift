/// The last `capacity` requests, oldest first: a ring buffer behind one short lock.
public final class RequestJournal: Sendable {
    public static let defaultCapacity = 1000

    private struct Ring {
        var entries: [JournalEntry] = []
        var next = 0
        /// Entries recorded since the journal was made: the next entry's ticket.
        var recorded = 0
    }

    /// Names one recorded entry, to complete it once its answer is sent.
    public struct Ticket: Sendable {
        let number: Int
    }

    private let capacity: Int
    private let ring = Locked(Ring())
    /// With a proxy: the values of credential headers (`CredentialHeaders`) are kept as `REDACTED`.
    public let redactsCredentials: Bool

    public init(capacity: Int = RequestJournal.defaultCapacity, redactsCredentials: Bool = false) {
        self.capacity = capacity
        self.redactsCredentials = redactsCredentials
    }

    /// Records `entry` with the headers `packHeaders` appends (packed as `JournalEntry.packedHeaders`).
    /// Once the ring is full, they go into the buffer of the entry they replace, so that recording a
    /// request allocates nothing and frees nothing.
    @discardableResult
    public func record(_ entry: consuming JournalEntry, packingHeaders packHeaders: (inout [UInt8]) -> Void) -> Ticket {
        var entry = consume entry
        return ring.withLock { ring in
            defer { ring.recorded += 1 }
            entry.ticket = ring.recorded
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
            return Ticket(number: ring.recorded)
        }
    }

    /// Sets the status of the entry `ticket` names, recorded with none or another (a script's answer, a
    /// file that could not be read): what was sent. Nothing when the entry is gone since.
    public func complete(_ ticket: Ticket, status: Int) {
        ring.withLock { ring in
            let count = ring.entries.count
            // Newest first: the entry is nearly always among the last few recorded.
            for back in stride(from: 1, through: count, by: 1) {
                let index = (ring.next - back + count) % count
                if ring.entries[index].ticket == ticket.number { ring.entries[index].status = status }
                if ring.entries[index].ticket <= ticket.number { return }
            }
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
        ring.withLock { ring in ring = Ring(recorded: ring.recorded) }
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
