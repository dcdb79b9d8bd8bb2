import EspressoMartini
import Testing

@Suite struct RequestJournalTests {
    /// An entry for `/r<number>` whose single header says the number, `number` bytes long, so that a
    /// header written into a reused buffer that was not emptied first shows.
    @discardableResult
    private func record(_ number: Int, in journal: RequestJournal, status: Int? = 200) -> RequestJournal.Ticket {
        let entry = JournalEntry(
            time: Timestamp(seconds: number, nanoseconds: 0), method: "GET", path: "/r\(number)", query: "",
            body: [], bodySize: 0, route: nil, response: nil, status: status
        )
        return journal.record(entry) { packed in
            packed += Array("X-Number".utf8) + [0] + Array(String(repeating: "\(number % 10)", count: number).utf8) + [0]
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
}
