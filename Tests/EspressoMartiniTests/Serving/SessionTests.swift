import EspressoMartini
import Testing

/// Sessions (doc/faults-and-sessions.md): their own counters and cache, kept at most `max_sessions`, least recently used forgotten.
@Suite struct SessionTests {
    static let tree = [
        "job/GET/configuration.json": #"[{"status_code": 201}, {"status_code": 202}, {"status_code": 203}]"#,
        "login/POST/configuration.json":
            #"{"variants": [{"when": {"query": {"a": "1"}}, "responses": [{"status_code": 201}, {"status_code": 202}]}, {"responses": {}}]}"#,
        "other/GET/configuration.json": #"{}"#,
    ]

    @Test func eachSessionPlaysItsSequencesFromTheStartAndTheDefaultOneIsLeftAlone() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let statuses = { (session: String?) in fixture.decide("GET", "/job", session: session).statusCode }
        #expect(
            [statuses("a"), statuses("a"), statuses("b"), statuses(nil), statuses("a"), statuses("b")] == [
                201, 202, 201, 201, 203, 202,
            ])
        #expect(fixture.decide("POST", "/login?a=1", session: "a").statusCode == 201)
        #expect(fixture.decide("POST", "/login?a=1", session: "b").statusCode == 201)
        #expect(fixture.decide("POST", "/login?a=1", session: "a").statusCode == 202)
        #expect(
            fixture.service.tree.counters.map(\.value) == [1, 0, 0, 0], "the default session counted only its own call")
    }

    @Test func aSessionHoldsCountersOnlyForWhatItCalls() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/job", session: "sparse")
        _ = fixture.decide("GET", "/job", session: "sparse")
        _ = fixture.decide("POST", "/login", session: "sparse")
        #expect(fixture.service.sessions.existing(named: "sparse")?.counterCount == 2)
    }

    @Test func sessionCountersSurviveAReloadOfTheSameExchanges() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/job", session: "a")
        fixture.service.install(fixture.service.tree.exchangeTree)
        #expect(fixture.decide("GET", "/job", session: "a").statusCode == 202)
    }

    @Test func theAdminAPIReadsAndResetsOneSession() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/job", session: "a")
        _ = fixture.decide("GET", "/job", session: "a")
        _ = fixture.decide("GET", "/other", session: "a")
        _ = fixture.decide("GET", "/job")
        let list = fixture.decide("GET", "/__espressomartini/exchanges?session=a").summary
        #expect(list.contains(#""route":"/job","folder":"job/GET","responses":3,"calls":2"#), "\(list)")
        #expect(list.contains(#""route":"/other","folder":"other/GET","responses":1,"calls":1"#), "\(list)")
        let unknown = fixture.decide("GET", "/__espressomartini/exchanges?session=nobody").summary
        #expect(unknown.contains(#""route":"/job","folder":"job/GET","responses":3,"calls":0"#), "\(unknown)")
        #expect(fixture.decide("POST", "/__espressomartini/reset?session=a&method=GET&route=/job").statusCode == 204)
        #expect(fixture.decide("GET", "/job", session: "a").statusCode == 201)
        #expect(fixture.decide("GET", "/other", session: "a").statusCode == 200)
        #expect(fixture.decide("GET", "/job").statusCode == 202, "the default session's counter was left alone")
        #expect(fixture.decide("POST", "/__espressomartini/reset?session=a").statusCode == 204)
        #expect(fixture.decide("GET", "/job", session: "a").statusCode == 201)
        #expect(fixture.decide("GET", "/job").statusCode == 203)
        #expect(fixture.decide("POST", "/__espressomartini/reset?session=nobody").statusCode == 204)
        #expect(fixture.service.sessions.existing(named: "nobody") == nil, "the admin API makes no session")
    }

    @Test func theJournalRecordsTheSessionAndListsOneSessionsPart() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/job", session: "a")
        _ = fixture.decide("GET", "/other")
        _ = fixture.decide("GET", "/other", session: "b")
        #expect(fixture.journal.entries.map(\.session) == ["a", nil, "b"])
        let mine = fixture.decide("GET", "/__espressomartini/requests?session=a").summary
        #expect(
            mine.contains(#""session":"a""#) && !mine.contains(#""session":"b""#) && !mine.contains(#""session":null"#),
            "\(mine)")
        #expect(fixture.decide("GET", "/__espressomartini/requests").summary.contains(#""session":null"#))
        #expect(fixture.decide("DELETE", "/__espressomartini/requests?session=a").statusCode == 204)
        #expect(fixture.journal.entries.map(\.session) == [nil, "b"])
    }

    @Test func eachSessionHasItsOwnCache() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/job", session: "a")
        let cache = try #require(fixture.service.cache(ofSession: "a"))
        cache.withCall { call in
            call.setValue(.integer(7), forKey: "n")
        }
        #expect(fixture.decide("GET", "/__espressomartini/cache?session=a").summary == #"admin 200 {"n":7}"#)
        #expect(fixture.decide("GET", "/__espressomartini/cache").summary == "admin 200 {}")
        #expect(fixture.decide("GET", "/__espressomartini/cache?session=nobody").summary == "admin 200 {}")
        #expect(fixture.decide("DELETE", "/__espressomartini/cache?session=a").statusCode == 204)
        #expect(fixture.decide("GET", "/__espressomartini/cache?session=a").summary == "admin 200 {}")
    }

    /// 100 000 distinct sessions in a loop: never more than the bound kept; the most recent ones are.
    @Test func manyDistinctSessionsStayWithinTheBound() {
        let sessions = Sessions(capacity: 1000)
        var most = 0
        for number in 0..<100_000 {
            _ = sessions.session(named: "run-\(number)")
            most = max(most, sessions.count)
        }
        #expect(most == 1000 && sessions.count == 1000)
        #expect(sessions.existing(named: "run-98999") == nil && sessions.existing(named: "run-99000") != nil)
    }

    @Test func theLeastRecentlyUsedSessionIsForgottenFirst() {
        let sessions = Sessions(capacity: 3)
        let a = sessions.session(named: "a")
        _ = sessions.session(named: "b")
        _ = sessions.session(named: "c")
        #expect(sessions.session(named: "a") === a, "a used again, now the most recent")
        _ = sessions.session(named: "d")
        #expect(sessions.existing(named: "b") == nil)
        #expect(["a", "c", "d"].allSatisfy { sessions.existing(named: $0) != nil })
        _ = sessions.existing(named: "c")  // a peek does not count as a use
        _ = sessions.session(named: "e")
        #expect(sessions.existing(named: "c") == nil && sessions.count == 3)
    }

    @Test func aBoundOfOneKeepsTheLastSession() {
        let sessions = Sessions(capacity: 1)
        for name in ["a", "b", "a"] { _ = sessions.session(named: name) }
        #expect(sessions.count == 1 && sessions.existing(named: "a") != nil)
    }

    @Test(arguments: [
        ("", SessionName.none),
        ("  \t ", .none),
        (" run-7 ", .named("run-7")),
        ("café ☕", .named("café ☕")),
        (String(repeating: "x", count: 256), .named(String(repeating: "x", count: 256))),
        (String(repeating: "x", count: 10 * 1024), .refused("the session name is 10240 bytes long; use at most 256")),
        ("a\u{1}b", .refused("the session name has control characters; use printable text")),
    ])
    func readsAHeaderValue(_ value: String, _ expected: SessionName) {
        var value = value
        #expect(value.withUTF8 { SessionName(headerValue: $0) } == expected)
    }

    @Test func refusesInvalidUTF8() {
        let bytes: [UInt8] = [0x61, 0xFF, 0xFE, 0x62]
        #expect(
            bytes.withUnsafeBufferPointer { SessionName(headerValue: $0) }
                == .refused("the session name is not valid UTF-8"))
    }

    /// Many sessions calling at once: each one's counter hands out each position exactly once.
    @Test func underConcurrencyEachSessionCountsExactly() async throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let statuses = await withTaskGroup(of: (String, UInt32).self) { group in
            for task in 0..<400 {
                group.addTask {
                    ("s\(task % 4)", fixture.decide("GET", "/job", session: "s\(task % 4)").statusCode ?? 0)
                }
            }
            var all: [String: [UInt32]] = [:]
            for await (session, status) in group { all[session, default: []].append(status) }
            return all
        }
        for (_, seen) in statuses {
            #expect(seen.sorted() == [201, 202] + [UInt32](repeating: 203, count: 98))
        }
    }
}
