import EspressoMartini
import EspressoMartiniJansson
import Testing

/// `requests/count`, `requests/find` and the filters of `GET requests` as the admin API's decisions, over
/// requests decided and journaled as the server does.
@Suite struct RequestCountDecisionTests {
    static let tree = [
        "api/v1/orders/POST/configuration.json": #"{"status_code": 201}"#,
        "api/v1/orders/{id}/GET/configuration.json": #"{"body": {"id": 1}}"#,
        "api/v1/products/{id}/GET/configuration.json": #"{"body": {"id": 1}}"#,
    ]

    /// Three orders (two gold, one in session run-1), two reads, and a miss.
    static func fixture(journalSize: Int = 1000) throws -> DeciderFixture {
        var configuration = ServerConfiguration()
        configuration.journalSize = journalSize
        let fixture = try DeciderFixture(files: tree, configuration: configuration)
        let json = [HTTPHeader(name: "Content-Type", value: "application/json")]
        _ = fixture.decide("POST", "/api/v1/orders", headers: json, body: #"{"tier": "gold", "items": [1, 2]}"#)
        _ = fixture.decide("POST", "/api/v1/orders", headers: json, body: #"{"tier": "silver"}"#)
        _ = fixture.decide("POST", "/api/v1/orders", headers: json, body: #"{"tier": "gold"}"#, session: "run-1")
        _ = fixture.decide("GET", "/api/v1/orders/A-42?expand=items")
        _ = fixture.decide("GET", "/api/v1/orders/B-7")
        _ = fixture.decide("GET", "/api/v1/product/7")
        return fixture
    }

    static func count(_ fixture: DeciderFixture, _ body: String, query: String = "") -> String {
        fixture.decide("POST", "/__espressomartini/requests/count" + query, body: body).summary
    }

    @Test(arguments: [
        ("", #"{"count":6,"complete":true}"#),
        (#"{"method": "POST"}"#, #"{"count":3,"complete":true}"#),
        (#"{"method": "post", "when": {"json": {"/tier": "gold"}}}"#, #"{"count":2,"complete":true}"#),
        (#"{"path": "/api/v1/orders/{id}"}"#, #"{"count":2,"complete":true}"#),
        (
            #"{"path": "/api/v1/orders/{id}", "when": {"path": {"id": {"prefix": "A-"}}, "query": {"expand": "items"}}}"#,
            #"{"count":1,"complete":true}"#
        ),
        (#"{"path": "/api/**"}"#, #"{"count":6,"complete":true}"#),
        (#"{"path": "/api/v1/product/*"}"#, #"{"count":1,"complete":true}"#),
        (#"{"status": 201}"#, #"{"count":3,"complete":true}"#),
        (#"{"status": "4xx"}"#, #"{"count":1,"complete":true}"#),
        (#"{"unmatched": true}"#, #"{"count":1,"complete":true}"#),
        (#"{"when": {"headers": {"content-type": {"contains": "json"}}}}"#, #"{"count":3,"complete":true}"#),
    ])
    func countsTheMatchingRequests(_ body: String, _ expected: String) throws {
        #expect(Self.count(try Self.fixture(), body) == "admin 200 " + expected)
    }

    @Test func aSessionCountsItsOwnRequests() throws {
        let fixture = try Self.fixture()
        #expect(
            Self.count(fixture, #"{"method": "POST"}"#, query: "?session=run-1")
                == #"admin 200 {"count":1,"complete":true}"#)
        #expect(Self.count(fixture, "", query: "?session=run-2") == #"admin 200 {"count":0,"complete":true}"#)
    }

    @Test func countingIsNotRecordedAndMovesNoCounter() throws {
        let fixture = try Self.fixture()
        _ = Self.count(fixture, "{}")
        _ = fixture.decide("POST", "/__espressomartini/requests/find", body: "{}")
        #expect(fixture.journal.entries.count == 6)
        #expect(fixture.service.tree.counters.map(\.value).reduce(0, +) == 4)
    }

    @Test func aCountIsIncompleteOnceTheJournalDroppedRequests() throws {
        let fixture = try Self.fixture(journalSize: 4)
        #expect(Self.count(fixture, "{}") == #"admin 200 {"count":4,"complete":false}"#)
        #expect(Self.count(fixture, "{}", query: "?session=run-1") == #"admin 200 {"count":1,"complete":true}"#)
        #expect(fixture.decide("DELETE", "/__espressomartini/requests").statusCode == 204)
        _ = fixture.decide("GET", "/api/v1/orders/C-1")
        #expect(Self.count(fixture, "{}") == #"admin 200 {"count":1,"complete":true}"#)
    }

    @Test func findListsTheEntriesAsTheJournalDoes() throws {
        let fixture = try Self.fixture()
        guard
            case .admin(let answer) = fixture.decide(
                "POST", "/__espressomartini/requests/find", body: #"{"when": {"json": {"/tier": "gold"}}}"#)
        else {
            Issue.record("not an admin answer")
            return
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.statusCode == 200)
        let expected = fixture.journal.entries.filter { String(decoding: $0.body, as: UTF8.self).contains("gold") }.map(
            \.json)
        #expect(text == JSONValue.array(expected).compactText)
        #expect(expected.count == 2)
    }

    @Test func unmatchedRequestsComeWithTheirClosestRoutes() throws {
        let fixture = try Self.fixture()
        for target in ["/__espressomartini/requests?unmatched=true"] {
            let summary = fixture.decide("GET", target).summary
            #expect(summary.hasPrefix(#"admin 200 [{"time":"#))
            #expect(summary.contains(#""path":"/api/v1/product/7""#))
            #expect(
                summary.hasSuffix(
                    #""status":404,"session":null,"proxied":false,"closest":["GET /api/v1/products/{id}","GET /api/v1/orders/{id}"]}]"#
                ))
        }
        let found = fixture.decide("POST", "/__espressomartini/requests/find", body: #"{"unmatched": true}"#).summary
        #expect(found == fixture.decide("GET", "/__espressomartini/requests?unmatched=true").summary)
        let all = fixture.decide("GET", "/__espressomartini/requests").summary
        #expect(!all.contains("closest"))
    }

    @Test(arguments: [
        ("?method=GET", 3),
        ("?method=get&path=%2Fapi%2Fv1%2Forders%2F%7Bid%7D", 2),
        ("?status=201", 3),
        ("?status=4xx", 1),
        ("?path=/api/v1/orders&session=run-1", 1),
        ("?unmatched=false", 6),
    ])
    func theListingFiltersByItsQuery(_ query: String, _ expected: Int) throws {
        let fixture = try Self.fixture()
        guard case .admin(let answer) = fixture.decide("GET", "/__espressomartini/requests" + query),
            case .success(.array(let entries)) = JanssonParser().parse(answer.body)
        else {
            Issue.record("no JSON array for \(query)")
            return
        }
        #expect(entries.count == expected)
    }

    @Test(arguments: [
        (
            "POST", "/__espressomartini/requests/count", #"{"methd": "GET"}"#,
            #"admin 400 {"error":"request body:1:2: error: unknown key 'methd'; the body takes 'method', 'path', 'status', 'unmatched' and 'when'; did you mean 'method'?","errors":["request body:1:2: error: unknown key 'methd'; the body takes 'method', 'path', 'status', 'unmatched' and 'when'; did you mean 'method'?"]}"#
        ),
        (
            "POST", "/__espressomartini/requests/find", #"{"when": {"json": {"/a": {"regex": "("}}}}"#,
            #"admin 400 {"error":"request body:1:36: error: 'regex' \"(\" does not compile: expected ')'","errors":["request body:1:36: error: 'regex' \"(\" does not compile: expected ')'"]}"#
        ),
        (
            "POST", "/__espressomartini/requests/count?method=GET", "{}",
            #"admin 400 {"error":"give 'method' in the JSON body: {\"method\", \"path\", \"status\", \"unmatched\", \"when\"}; the query takes only 'session'"}"#
        ),
        (
            "GET", "/__espressomartini/requests/count", "",
            #"admin 405 {"error":"use POST for /__espressomartini/requests/count"}"#
        ),
        (
            "GET", "/__espressomartini/requests?stauts=404", "",
            #"admin 400 {"error":"unknown filter 'stauts'; requests takes 'method', 'path', 'status', 'unmatched' and 'session'; did you mean 'status'?; conditions on headers, query or body go in the body of POST requests/find"}"#
        ),
        (
            "DELETE", "/__espressomartini/requests?method=GET", "",
            #"admin 400 {"error":"DELETE requests empties the journal, or one session's part with 'session'; it takes no 'method'"}"#
        ),
        (
            "POST", "/__espressomartini/requests/other", "",
            #"admin 404 {"error":"no admin endpoint /__espressomartini/requests/other; known: cache, exchanges, exchanges/{id}, explain, health, reload, requests, requests/count, requests/find, requests/verify, reset"}"#
        ),
    ])
    func aBadFilterIsRefusedWithWhatIsWrong(
        _ method: String, _ target: String, _ body: String, _ expected: String
    ) throws {
        #expect(
            try DeciderFixture(files: Self.tree).decide(method, target, body: body.isEmpty ? nil : body).summary
                == expected)
    }

    @Test func aBodyLongerThanTheServerKeepsIs413() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        var request = Request(
            method: "POST", path: "/__espressomartini/requests/count", body: Array("{}".utf8), bodySize: 70_000)
        request.client = DeciderFixture.loopback
        #expect(
            fixture.decider.decide(request, tree: fixture.service.tree).summary
                == #"admin 413 {"error":"the body is 70000 bytes; a filter may have 64 KiB at most"}"#)
    }
}
