import EspressoMartini
import Testing

@Suite struct RequestJournalTests {
    /// An entry for `/r<number>` whose single header says the number, `number` bytes long, so that a
    /// header written into a reused buffer that was not emptied first shows.
    @discardableResult
    private func record(
        _ number: Int, in journal: RequestJournal, status: Int? = 200, session: String? = nil, tag: Int = 0
    ) -> RequestJournal.Ticket {
        let entry = JournalEntry(
            time: Timestamp(seconds: number, nanoseconds: 0), method: "GET", path: "/r\(number)", query: String(tag),
            body: [], bodySize: 0, route: nil, response: nil, status: status, session: session
        )
        return journal.record(entry) { packed in
            packed +=
                Array("X-Number".utf8) + [0] + Array(String(repeating: "\(number % 10)", count: number).utf8) + [0]
        }
    }

    private func headerValue(of entry: JournalEntry) -> String? {
        entry.headers.first { $0.name == "X-Number" }?.value
    }

    @Test func keepsTheLastRequestsOldestFirstEachWithItsOwnHeaders() {
        let journal = RequestJournal(capacity: 3)
        // Long headers first, then shorter ones into the same buffers, over several laps of the ring.
        for number in [9, 8, 7, 1, 2, 3, 6, 4, 5, 2] { record(number, in: journal) }
        let entries = journal.entries
        #expect(entries.map(\.path) == ["/r4", "/r5", "/r2"])
        #expect(entries.map(headerValue) == ["4444", "55555", "22"])
        #expect(entries.map(\.headers.count) == [1, 1, 1])
    }

    /// An entry recorded before its status is known (a script running) is completed once it is sent, in
    /// its place among the others, after the ring has turned too; one the ring dropped is left alone.
    @Test func anEntryIsCompletedWithTheStatusSent() {
        let journal = RequestJournal(capacity: 3)
        let pending = record(1, in: journal, status: nil)
        #expect(journal.entries.first?.json.descendant(at: ["status"]) == .null)
        record(2, in: journal)
        journal.complete(pending, status: 418)
        #expect(journal.entries.map(\.status) == [418, 200])
        let late = record(3, in: journal, status: nil)
        record(4, in: journal)
        record(5, in: journal)
        journal.complete(late, status: 401)
        #expect(journal.entries.map(\.path) == ["/r3", "/r4", "/r5"])
        #expect(journal.entries.map(\.status) == [401, 200, 200])
        let dropped = record(6, in: journal, status: nil)
        for number in 7...9 { record(number, in: journal) }
        journal.complete(dropped, status: 500)
        #expect(journal.entries.map(\.status) == [200, 200, 200])
    }

    /// Clearing one session moves the entries kept into other slots: an entry is still completed where it
    /// went, and a ticket of an entry cleared away completes nothing, not the entry now in its old slot.
    @Test func anEntryMovedByClearingASessionIsCompletedWhereItWent() {
        let journal = RequestJournal(capacity: 4)
        let cleared = record(1, in: journal, status: nil, session: "gone")
        let moved = record(2, in: journal, status: nil)
        let kept = record(3, in: journal, status: nil)
        journal.clear(session: "gone")
        #expect(journal.entries.map(\.path) == ["/r2", "/r3"])
        journal.complete(cleared, status: 500)
        #expect(journal.entries.map(\.status) == [nil, nil])
        journal.complete(kept, status: 201)
        journal.complete(moved, status: 418)
        #expect(journal.entries.map(\.status) == [418, 201])
    }

    @Test func beforeTheRingIsFullKeepsEveryRequest() {
        let journal = RequestJournal(capacity: 5)
        for number in 1...3 { record(number, in: journal) }
        #expect(journal.entries.map(\.path) == ["/r1", "/r2", "/r3"])
        #expect(journal.entries.map(headerValue) == ["1", "22", "333"])
    }

    @Test func clearEmptiesTheJournal() {
        let journal = RequestJournal(capacity: 2)
        for number in 1...5 { record(number, in: journal) }
        journal.clear()
        #expect(journal.entries.isEmpty)
        record(7, in: journal)
        #expect(journal.entries.map(headerValue) == ["7777777"])
    }

    @Test func underConcurrencyEveryEntryKeepsItsOwnHeaders() async {
        let journal = RequestJournal(capacity: 100)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for call in 0..<500 { record(1 + (task * 500 + call) % 40, in: journal) }
                }
            }
        }
        let entries = journal.entries
        #expect(entries.count == 100)
        for entry in entries {
            let number = Int(entry.path.dropFirst(2))!
            #expect(headerValue(of: entry) == String(repeating: "\(number % 10)", count: number))
        }
    }

    /// A count is never silently short: the snapshot says whether the ring dropped requests since it was
    /// last emptied, of any session or of the one asked about.
    @Test func aSnapshotSaysWhetherTheRingDroppedRequests() {
        let journal = RequestJournal(capacity: 3)
        for number in 1...3 { record(number, in: journal, session: number == 2 ? "run-1" : nil) }
        #expect(journal.snapshot().complete)
        #expect(journal.snapshot().entries.map(\.path) == ["/r1", "/r2", "/r3"])
        record(4, in: journal)  // drops /r1, of the default session
        #expect(!journal.snapshot().complete)
        #expect(journal.snapshot(session: "run-1").complete)
        record(5, in: journal)  // drops /r2, of run-1
        #expect(!journal.snapshot(session: "run-1").complete)
        #expect(journal.snapshot(session: "run-2").complete)
        journal.clear(session: "run-1")
        #expect(journal.snapshot(session: "run-1").complete)
        #expect(!journal.snapshot().complete, "the default session's request is still missing")
        journal.clear()
        #expect(journal.snapshot().complete)
        #expect(journal.snapshot().entries.isEmpty)
    }

    @Test func aSnapshotIsACopyTheRingDoesNotChange() {
        let journal = RequestJournal(capacity: 2)
        for number in 1...3 { record(number, in: journal) }
        let snapshot = journal.snapshot()
        for number in 4...6 { record(number, in: journal) }
        #expect(snapshot.entries.map(\.path) == ["/r2", "/r3"])
        #expect(snapshot.entries.map(headerValue) == ["22", "333"])
        #expect(journal.entries.map(\.path) == ["/r5", "/r6"])
    }

    /// A ring longer than a chunk, its last chunk partial: entries in order over several laps, a snapshot
    /// unchanged by what is recorded after it (the chunks it shares are copied on write), statuses completed
    /// across chunks, a session's part cleared.
    @Test func aRingOfSeveralChunksKeepsItsOrderAndItsSnapshots() {
        let capacity = RequestJournal.chunkSize * 2 + 500
        let journal = RequestJournal(capacity: capacity)
        var tickets: [Int: RequestJournal.Ticket] = [:]
        for number in 1...(capacity + 700) {
            tickets[number] = record(number % 50 + 1, in: journal, status: nil, session: number % 2 == 0 ? "even" : nil)
        }
        let before = journal.snapshot()
        #expect(before.parts.count == 4, "the ring has turned inside its first chunk: 4 runs")
        #expect(before.entries.count == capacity)
        #expect(before.parts.map(\.count).reduce(0, +) == capacity)
        for number in (capacity + 701)...(capacity + 2000) {
            tickets[number] = record(number % 50 + 1, in: journal, status: nil)
        }
        #expect(before.entries.map(\.path) == (701...(capacity + 700)).map { "/r\($0 % 50 + 1)" })
        #expect(
            before.entries.map(headerValue)
                == (701...(capacity + 700)).map { String(repeating: "\(($0 % 50 + 1) % 10)", count: $0 % 50 + 1) })
        #expect(journal.entries.map(\.path) == (2001...(capacity + 2000)).map { "/r\($0 % 50 + 1)" })
        for number in [2001, 2001 + RequestJournal.chunkSize, capacity + 1999] {
            journal.complete(tickets[number]!, status: number)
        }
        let statuses = journal.entries.map(\.status)
        #expect(statuses[0] == 2001)
        #expect(statuses[RequestJournal.chunkSize] == 2001 + RequestJournal.chunkSize)
        #expect(statuses[capacity - 2] == capacity + 1999)
        #expect(statuses.compactMap { $0 }.count == 3)
        #expect(before.entries.allSatisfy { $0.status == nil }, "the snapshot keeps the statuses it saw")
    }

    @Test func clearingASessionsPartKeepsTheOthersInOrderAndRecordsOn() {
        let journal = RequestJournal(capacity: RequestJournal.chunkSize + 10)
        for number in 1...(RequestJournal.chunkSize + 30) {
            record(number % 9 + 1, in: journal, session: number % 3 == 0 ? "third" : nil, tag: number)
        }
        let others = journal.entries.filter { $0.session == nil }.map(\.query)
        journal.clear(session: "third")
        #expect(journal.entries.map(\.query) == others)
        for number in 1...700 { record(number % 9 + 1, in: journal, tag: 10_000 + number) }
        let entries = journal.entries
        #expect(entries.count == RequestJournal.chunkSize + 10)
        #expect(entries.map { Int($0.query)! } == entries.map { Int($0.query)! }.sorted(), "oldest first")
        #expect(entries.last.map(headerValue) == String(repeating: "\(700 % 9 + 1)", count: 700 % 9 + 1))
    }
}
