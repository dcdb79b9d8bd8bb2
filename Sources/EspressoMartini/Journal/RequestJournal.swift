/// The last `capacity` requests, oldest first: a ring buffer behind one short lock. The ring's slots are
/// kept in chunks of `chunkSize`, arrays that snapshots share: taking a snapshot copies no entry, and
/// recording into a chunk that a snapshot still holds copies that chunk (Swift's copy on write), once.
public final class RequestJournal: Sendable {
    public static let defaultCapacity = 1000
    /// Slots per chunk: a snapshot costs one reference per chunk, a write into a shared chunk a copy of one.
    public static let chunkSize = 1024

    private struct Ring {
        /// Slot `s` is `chunks[s / chunkSize][s % chunkSize]`; every chunk but the last is full.
        var chunks: [[JournalEntry]] = []
        /// Entries held: fewer than the capacity until the ring is full.
        var count = 0
        /// Once the ring is full, the slot the next entry goes to, which holds the oldest.
        var next = 0
        /// Entries recorded since the journal was made: the next entry's ticket.
        var recorded = 0
        /// Which requests the ring dropped to make room since they were cleared: so that a count over
        /// what is left says it may be short (`Snapshot.complete`).
        var dropped = DroppedSessions()

        /// The slot of the entry `back` places before the newest (0: the newest).
        func slot(back: Int) -> Int {
            (next - 1 - back + 2 * count) % count
        }

        /// The ticket of the entry in `slot`, read in place: copying the entry would retain and release each
        /// of its strings and arrays.
        func ticket(at slot: Int) -> Int {
            chunks[slot / RequestJournal.chunkSize][slot % RequestJournal.chunkSize].ticket
        }

        mutating func setStatus(_ status: Int, at slot: Int) {
            chunks[slot / RequestJournal.chunkSize][slot % RequestJournal.chunkSize].status = status
        }

        /// The entries oldest first, as slices of the chunks (sharing them).
        func parts() -> [ArraySlice<JournalEntry>] {
            let size = RequestJournal.chunkSize
            var parts: [ArraySlice<JournalEntry>] = []
            parts.reserveCapacity(chunks.count + 1)
            // Once the ring has turned, the oldest entry is at `next`; before, at 0 (and `next` is `count`).
            for range in [next..<count, 0..<next] {
                var slot = range.lowerBound
                while slot < range.upperBound {
                    let chunk = slot / size, end = min(range.upperBound, (chunk + 1) * size)
                    parts.append(chunks[chunk][(slot - chunk * size)..<(end - chunk * size)])
                    slot = end
                }
            }
            return parts
        }
    }

    /// The sessions some of whose requests were dropped: the default one, and named ones up to a bound
    /// (past it, every named session counts as having lost some).
    struct DroppedSessions {
        static let namesKept = 10_000
        var defaultSession = false
        var names: Set<String> = []
        var tooManyNames = false

        mutating func insert(_ session: String?) {
            guard let session else { defaultSession = true; return }
            if names.count < Self.namesKept {
                names.insert(session)
            } else if !names.contains(session) {
                tooManyNames = true
            }
        }

        /// Whether none of `session`'s requests was dropped; nil: of any session.
        func complete(session: String?) -> Bool {
            guard let session else { return !defaultSession && names.isEmpty && !tooManyNames }
            return !tooManyNames && !names.contains(session)
        }
    }

    /// The journal's entries at one moment, oldest first, and whether they are all that was recorded
    /// since the journal was last emptied. Shares the ring's chunks: taking it copies no entry.
    public struct Snapshot: Sendable {
        /// The entries oldest first, in runs of at most `chunkSize`.
        public let parts: [ArraySlice<JournalEntry>]
        public let complete: Bool

        /// The entries oldest first, in an array of their own.
        public var entries: [JournalEntry] { Array(parts.joined()) }
    }

    /// Names one recorded entry, to complete it once its answer is sent.
    public struct Ticket: Sendable {
        let number: Int
        /// The ring's slot the entry went to: still its slot unless the ring was cleared since.
        let slot: Int
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
    /// request allocates nothing and frees nothing (unless a snapshot holds that entry's chunk).
    @discardableResult
    public func record(_ entry: consuming JournalEntry, packingHeaders packHeaders: (inout [UInt8]) -> Void) -> Ticket {
        var entry = consume entry
        return ring.withLock { ring in
            defer { ring.recorded += 1 }
            entry.ticket = ring.recorded
            let slot = ring.count < capacity ? ring.count : ring.next
            if ring.count < capacity {
                packHeaders(&entry.packedHeaders)
                if ring.count % Self.chunkSize == 0 {
                    ring.chunks.append([])
                    ring.chunks[ring.chunks.count - 1].reserveCapacity(min(Self.chunkSize, capacity - ring.count))
                }
                ring.chunks[ring.chunks.count - 1].append(entry)
                ring.count += 1
                ring.next = ring.count % capacity
            } else {
                let chunk = ring.next / Self.chunkSize, offset = ring.next % Self.chunkSize
                ring.dropped.insert(ring.chunks[chunk][offset].session)
                swap(&entry.packedHeaders, &ring.chunks[chunk][offset].packedHeaders)
                entry.packedHeaders.removeAll(keepingCapacity: true)
                packHeaders(&entry.packedHeaders)
                swap(&entry, &ring.chunks[chunk][offset])  // the entry replaced is released after the lock
                ring.next = (ring.next + 1) % capacity
            }
            return Ticket(number: ring.recorded, slot: slot)
        }
    }

    /// Sets the status of the entry `ticket` names, recorded with none or another (a script's answer, a
    /// file that could not be read): what was sent. Nothing when the entry is gone since.
    public func complete(_ ticket: Ticket, status: Int) {
        ring.withLock { ring in
            if ticket.slot < ring.count, ring.ticket(at: ticket.slot) == ticket.number {
                ring.setStatus(status, at: ticket.slot)
                return
            }
            // Newest first: the entry is nearly always among the last few recorded.
            for back in 0..<ring.count {
                let slot = ring.slot(back: back)
                let number = ring.ticket(at: slot)
                if number == ticket.number { ring.setStatus(status, at: slot) }
                if number <= ticket.number { return }
            }
        }
    }

    /// Oldest first.
    public var entries: [JournalEntry] {
        snapshot().entries
    }

    /// Every entry, oldest first, and whether the ring dropped any request of the session named `session`
    /// (nil: of any session) since it was last emptied.
    public func snapshot(session: String? = nil) -> Snapshot {
        ring.withLock { ring in Snapshot(parts: ring.parts(), complete: ring.dropped.complete(session: session)) }
    }

    public func clear() {
        ring.withLock { ring in ring = Ring(recorded: ring.recorded) }
    }

    /// Forgets the entries of the session named `session` only (nil: the default session's), keeping
    /// the others in order; that session's part is then complete again.
    public func clear(session: String?) {
        ring.withLock { ring in
            let kept = ring.parts().joined().filter { $0.session != session }
            var chunks: [[JournalEntry]] = []
            for start in stride(from: 0, to: kept.count, by: Self.chunkSize) {
                chunks.append(Array(kept[start..<min(start + Self.chunkSize, kept.count)]))
            }
            ring.chunks = chunks
            ring.count = kept.count
            ring.next = kept.count % capacity
            if let session { ring.dropped.names.remove(session) } else { ring.dropped.defaultSession = false }
        }
    }
}
