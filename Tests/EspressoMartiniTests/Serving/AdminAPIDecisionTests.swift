import EspressoMartini
import Testing

/// The admin API (doc/admin-api.md) as decisions: answered before routing, never an exchange's call.
@Suite struct AdminAPIDecisionTests {
    static let tree = [
        "users/{id}/GET/configuration.json": #"[{"status_code": 200}, {"status_code": 201}]"#,
        "ping/GET/configuration.json": #"{"body": "pong"}"#,
    ]

    @Test func healthCountsTheExchanges() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(
            fixture.decide("GET", "/__espressomartini/health").summary
                == #"admin 200 {"status":"ok","exchanges":2,"runtime_exchanges":0}"#)
    }

    @Test func exchangesShowLiveCallCounts() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/users/1")
        _ = fixture.decide("GET", "/users/2")
        #expect(
            fixture.decide("GET", "/__espressomartini/exchanges").summary == """
                admin 200 [{"method":"GET","route":"/ping","folder":"ping/GET","responses":1,"calls":0,"source":"tree"},\
                {"method":"GET","route":"/users/{id}","folder":"users/{id}/GET","responses":2,"calls":2,"source":"tree"}]
                """)
    }

    @Test func resetOneExchangeByAnEquivalentRouteSpelling() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/users/1")
        _ = fixture.decide("GET", "/ping")
        #expect(fixture.decide("POST", "/__espressomartini/reset?method=get&route=%2Fusers%2F*").statusCode == 204)
        #expect(fixture.decide("GET", "/users/1").exchangeAnswer?.position == 0)
        #expect(fixture.service.tree.counters.map(\.value) == [1, 1], "the /ping counter is left as it was")
    }

    @Test(arguments: [
        (
            "POST", "/__espressomartini/reset?method=GET",
            #"admin 400 {"error":"give both 'method' and 'route' to reset one exchange, or neither to reset all"}"#
        ),
        (
            "POST", "/__espressomartini/reset?method=GET&route=/nowhere",
            #"admin 404 {"error":"no exchange GET /nowhere to reset"}"#
        ),
        ("GET", "/__espressomartini/reset", #"admin 405 {"error":"use POST for /__espressomartini/reset"}"#),
        (
            "GET", "/__espressomartini/nothing",
            #"admin 404 {"error":"no admin endpoint /__espressomartini/nothing; known: cache, exchanges, exchanges/{id}, explain, health, reload, requests, requests/count, requests/find, requests/verify, reset"}"#
        ),
        ("POST", "/__espressomartini/reset", "admin 204 "),
    ])
    func answers(_ method: String, _ target: String, _ expected: String) throws {
        #expect(try DeciderFixture(files: Self.tree).decide(method, target).summary == expected)
    }

    @Test func theCacheIsListedInKeyOrderAndEmptied() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(fixture.decide("GET", "/__espressomartini/cache").summary == "admin 200 {}")
        let cache = fixture.service.cache
        cache.withCall { call in
            call.setValue(.string("ada"), forKey: "user")
            call.setValue(.integer(2), forKey: "n")
        }
        #expect(fixture.decide("GET", "/__espressomartini/cache").summary == #"admin 200 {"n":2,"user":"ada"}"#)
        #expect(fixture.decide("DELETE", "/__espressomartini/cache").statusCode == 204)
        #expect(fixture.decide("GET", "/__espressomartini/cache").summary == "admin 200 {}")
    }

    @Test func resetAllStartsEverySequenceAgain() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/users/1")
        _ = fixture.decide("POST", "/__espressomartini/reset")
        #expect(fixture.decide("GET", "/users/1").exchangeAnswer?.position == 0)
    }

    @Test func withTheAdminAPIOffItsPathsAreRoutedLikeAnyOther() throws {
        var configuration = ServerConfiguration()
        configuration.admin = false
        let fixture = try DeciderFixture(files: Self.tree, configuration: configuration)
        #expect(
            fixture.decide("GET", "/__espressomartini/health").summary
                == #"404 {"error":"no exchange for GET /__espressomartini/health","closest":[]}"#)
    }

    @Test func theJournalRecordsWhatTheDecisionSays() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let request = Request(
            method: "GET", path: "/users/9", rawQuery: "a=1",
            headers: RequestHeaders([
                HTTPHeader(name: "Accept", value: "*/*"), HTTPHeader(name: "X-Tag", value: "a"),
                HTTPHeader(name: "X-Tag", value: "b"),
            ]))
        let decision = fixture.decider.decide(request, tree: fixture.service.tree)
        fixture.journal.record(request, answeredBy: decision, body: Array("hi".utf8), bodySize: 2)
        let entry = try #require(fixture.journal.entries.first)
        #expect(entry.route == "/users/{id}")
        #expect(entry.response == 0)
        #expect(entry.status == 200)
        #expect(entry.query == "a=1")
        #expect(entry.headers == [HTTPHeader(name: "Accept", value: "*/*"), HTTPHeader(name: "X-Tag", value: "a, b")])
    }
}
