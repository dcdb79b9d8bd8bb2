import EspressoMartini
import EspressoMartiniJansson
import Testing

/// The journal's filters (doc/testing.md): what a `requests/count` or `requests/find` body and the query
/// of `GET requests` say, and which recorded requests they match, in-process.
@Suite struct JournalFilterTests {
    static let parser = JanssonParser()

    static func filter(_ body: String) throws -> JournalFilter {
        let (filter, diagnostics) = JournalFilter.parse(body: Array(body.utf8), parser: parser)
        #expect(diagnostics.all.isEmpty, "\(body)")
        return try #require(filter)
    }

    static func problems(_ body: String) -> [String] {
        let (filter, diagnostics) = JournalFilter.parse(body: Array(body.utf8), parser: parser)
        #expect(filter == nil)
        return diagnostics.all.map(\.description)
    }

    /// An entry as the journal records it: the headers packed, the first 64 KiB of the body kept.
    static func entry(
        _ target: String, route: String? = "/r", status: Int? = 200, session: String? = nil
    ) -> JournalEntry {
        entry("GET", target, route: route, status: status, session: session)
    }

    static func entry(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String = "", route: String? = "/r",
        status: Int? = 200, session: String? = nil
    ) -> JournalEntry {
        let (path, query) = target.split(separator: "?", maxSplits: 1).map(String.init).pair
        var packed: [UInt8] = []
        for (name, value) in headers { RequestHeaders.pack(name.utf8, value.utf8, into: &packed) }
        let bytes = Array(body.utf8)
        return JournalEntry(
            time: Timestamp(seconds: 0, nanoseconds: 0), method: method, path: path, query: query,
            packedHeaders: packed,
            body: Array(bytes.prefix(JournalEntry.bodyLimit)), bodySize: bytes.count, route: route,
            response: route == nil ? nil : 0,
            status: status, session: session
        )
    }

    static func matches(_ body: String, _ entry: JournalEntry) throws -> Bool {
        try filter(body).matches(entry, parser: parser)
    }

    // MARK: Reading a body

    @Test func anEmptyBodyOrObjectMatchesEveryRequest() throws {
        for body in ["", " \n", "{}"] {
            #expect(try Self.matches(body, Self.entry("DELETE", "/anything", route: nil, status: 404)))
        }
    }

    @Test(
        arguments: [
            (
                #"{"methd": "GET"}"#,
                [
                    "request body:1:2: error: unknown key 'methd'; the body takes 'method', 'path', 'status', 'unmatched' and 'when'; did you mean 'method'?"
                ]
            ),
            (
                #"[1]"#,
                [
                    #"request body:1:1: error: the body must be a JSON object such as {"method": "POST", "path": "/api/orders"}, found an array"#
                ]
            ),
            (
                #"{"method": 1}"#,
                [#"request body:1:12: error: 'method' must be a method such as "POST", found an integer"#]
            ),
            (
                #"{"method": "G ET"}"#,
                [#"request body:1:12: error: 'method' 'G ET' is not a method such as "GET" or "POST""#]
            ),
            (
                #"{"path": "/files/**/x"}"#,
                ["request body:1:10: error: '**' must be the last path component, but '/files/**/x' has 'x' after it"]
            ),
            (
                #"{"path": "/a/%zz"}"#,
                [
                    "request body:1:10: error: the folder name '%zz' has a '%' not followed by two hexadecimal digits; write a literal '%' as %25"
                ]
            ),
            (
                #"{"status": 700}"#,
                [
                    #"request body:1:12: error: 'status' 700 is not a status; give one from 100 to 599 (0 for a fault), or a class such as "4xx""#
                ]
            ),
            (
                #"{"status": "4x"}"#,
                [
                    #"request body:1:12: error: 'status' 4x is not a status; give one from 100 to 599 (0 for a fault), or a class such as "4xx""#
                ]
            ),
            (
                #"{"status": true}"#,
                [
                    #"request body:1:12: error: 'status' must be a status such as 404 or a class such as "4xx", found a boolean"#
                ]
            ),
            (#"{"unmatched": "yes"}"#, ["request body:1:15: error: 'unmatched' must be true or false, found a string"]),
            // `when` in the loader's words, positions in the body.
            (
                "{\n  \"when\": {\"qurey\": {\"a\": \"1\"}}\n}",
                [
                    "request body:2:12: error: unknown condition 'qurey'; 'when' takes 'query', 'headers', 'cookies', 'path', 'body', 'body_base64', 'json', 'form', 'multipart' and 'graphql'; did you mean 'query'?"
                ]
            ),
            (
                #"{"when": {"json": {"tier": "gold"}}}"#,
                [
                    #"request body:1:20: error: 'tier' is not a JSON Pointer: it must be "" (the whole document) or start with '/', as in '/tier'"#
                ]
            ),
            (
                #"{"when": {"body": {"regex": "(a"}}}"#,
                [#"request body:1:29: error: 'regex' "(a" does not compile: expected ')'"#]
            ),
            (
                #"{"when": {"headers": {"X": {"equals": "a", "prefix": "b"}}}}"#,
                [
                    "request body:1:44: error: 'equals' and 'prefix' cannot both be given in one matcher; keep one of them"
                ]
            ),
            (
                #"{"when": {"path": {"id": "7"}}, "path": "/users/{user}"}"#,
                ["request body:1:20: error: the route does not capture 'id': it captures 'user'"]
            ),
            (
                #"{"when": {"path": {"id": "7"}}}"#,
                [
                    "request body:1:20: error: the route does not capture 'id': it captures nothing; name a folder {id} or :id to capture it"
                ]
            ),
            (
                #"{"when": "x"}"#,
                [
                    #"request body:1:10: error: 'when' must be an object of conditions such as {"query": {"page": "2"}}, found a string"#
                ]
            ),
            (#"{"method": "GET",}"#, ["request body:1:18: error: invalid JSON: string or '}' expected near '}'"]),
            (
                #"{"method": 1, "status": "x"}"#,
                [
                    #"request body:1:12: error: 'method' must be a method such as "POST", found an integer"#,
                    #"request body:1:25: error: 'status' x is not a status; give one from 100 to 599 (0 for a fault), or a class such as "4xx""#,
                ]
            ),
        ] as [(String, [String])])
    func aBadBodyIsReportedAsTheLoaderWould(_ body: String, _ expected: [String]) {
        #expect(Self.problems(body) == expected)
    }

    // MARK: Matching

    @Test func methodIsComparedWithoutCase() throws {
        #expect(try Self.matches(#"{"method": "post"}"#, Self.entry("POST", "/a")))
        #expect(try !Self.matches(#"{"method": "POST"}"#, Self.entry("PUT", "/a")))
        #expect(try Self.matches(#"{"method": "BREW"}"#, Self.entry("brew", "/pot")))
    }

    @Test(arguments: [
        ("/api/v1/orders/{id}", "/api/v1/orders/A-42", true),
        ("/api/v1/orders/:id", "/api/v1/orders/A-42", true),
        ("/api/v1/orders/*", "/api/v1/orders/A-42", true),
        ("/api/v1/orders/{id}", "/api/v1/orders", false),
        ("/api/v1/orders/{id}", "/api/v1/orders/A-42/items", false),
        ("/api/v1/orders", "/api/v1/orders/", true),
        ("/api/v1/orders", "//api//v1/orders", true),
        ("/files/**", "/files/a/b/c.txt", true),
        ("/files/**", "/files", false),
        ("api/*/orders", "/api/v2/orders", true),
        ("/", "/", true),
        ("/", "/a", false),
        ("/%2A", "/*", true),
        ("/%2A", "/x", false),
        ("/caf\u{E9}", "/caf\u{E9}", true),
    ])
    func pathIsARouteMatchedWithTheTreesRules(_ pattern: String, _ path: String, _ expected: Bool) throws {
        #expect(try Self.matches(#"{"path": "\#(pattern)"}"#, Self.entry(path)) == expected)
    }

    @Test func pathMatchesWhetherOrNotThatRouteAnswered() throws {
        #expect(try Self.matches(#"{"path": "/users/{id}"}"#, Self.entry("/users/7", route: nil, status: 404)))
        #expect(try Self.matches(#"{"path": "/users/{id}"}"#, Self.entry("/users/7", route: "/users/**")))
    }

    @Test func statusExactlyOrByClass() throws {
        #expect(try Self.matches(#"{"status": 404}"#, Self.entry("/a", status: 404)))
        #expect(try Self.matches(#"{"status": "404"}"#, Self.entry("/a", status: 404)))
        #expect(try !Self.matches(#"{"status": 404}"#, Self.entry("/a", status: 405)))
        #expect(try Self.matches(#"{"status": "4XX"}"#, Self.entry("/a", status: 405)))
        #expect(try !Self.matches(#"{"status": "4xx"}"#, Self.entry("/a", status: 500)))
        #expect(try Self.matches(#"{"status": 0}"#, Self.entry("/a", status: 0)))
        #expect(
            try !Self.matches(#"{"status": "2xx"}"#, Self.entry("/a", status: nil)),
            "a script still running has no status yet")
    }

    @Test func unmatchedKeepsTheRequestsNoExchangeAnswered() throws {
        #expect(try Self.matches(#"{"unmatched": true}"#, Self.entry("/nowhere", route: nil, status: 404)))
        #expect(try !Self.matches(#"{"unmatched": true}"#, Self.entry("/users/1", route: "/users/{id}")))
        #expect(try Self.matches(#"{"unmatched": false}"#, Self.entry("/users/1", route: "/users/{id}")))
    }

    @Test func conditionsReadWhatTheJournalKept() throws {
        let order = Self.entry(
            "POST", "/orders/A-42?source=app&tag=a&tag=b",
            headers: [("Content-Type", "application/json"), ("X-Trace", "t1"), ("Cookie", "theme=dark; cart=7")],
            body: #"{"customer": {"tier": "gold"}, "items": [{"id": 3, "quantity": 2}]}"#
        )
        for (when, expected) in [
            (#"{"json": {"/customer/tier": "gold"}}"#, true),
            (#"{"json": {"/customer/tier": "silver"}}"#, false),
            (#"{"json": {"/items/0/quantity": {"equals": 2.0}}}"#, true),
            (#"{"json": {"/coupon": {"present": false}}}"#, true),
            (#"{"query": {"source": "app", "tag": "b"}}"#, true),
            (#"{"query": {"source": "web"}}"#, false),
            (#"{"headers": {"x-trace": {"prefix": "t"}}}"#, true),
            (#"{"headers": {"Authorization": {"present": false}}}"#, true),
            (#"{"cookies": {"cart": "7"}}"#, true),
            (#"{"body": {"contains": "\"tier\""}}"#, true),
            (#"{"body": {"regex": "(?i).*GOLD.*"}}"#, true),
            (#"{"graphql": {"type": "query"}}"#, false),
        ] {
            #expect(try Self.matches(#"{"when": \#(when)}"#, order) == expected, "\(when)")
        }
        #expect(try Self.matches(#"{"path": "/orders/{id}", "when": {"path": {"id": {"regex": "A-\\d+"}}}}"#, order))
        #expect(try !Self.matches(#"{"path": "/orders/:id", "when": {"path": {"id": "B-1"}}}"#, order))
    }

    @Test func formAndGraphQLBodies() throws {
        let form = Self.entry(
            "POST", "/login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: "user=ada&remember=on")
        #expect(try Self.matches(#"{"when": {"form": {"user": "ada"}}}"#, form))
        #expect(try !Self.matches(#"{"when": {"form": {"user": "bob"}}}"#, form))
        let graphQL = Self.entry(
            "POST", "/graphql", body: #"{"query": "mutation AddItem { add { id } }", "variables": {}}"#)
        #expect(try Self.matches(#"{"when": {"graphql": {"operation": "AddItem", "type": "mutation"}}}"#, graphQL))
        let getQuery = Self.entry("GET", "/graphql?query=query%20Cart%20%7B%20cart%20%7B%20id%20%7D%20%7D")
        #expect(try Self.matches(#"{"when": {"graphql": {"operation": "Cart"}}}"#, getQuery))
    }

    @Test func aBodyLongerThanTheJournalKeptFailsBodyConditions() throws {
        let long = #"{"tier": "gold", "padding": ""# + String(repeating: "x", count: 70_000) + #""}"#
        let entry = Self.entry("POST", "/orders", body: long)
        #expect(entry.body.count == JournalEntry.bodyLimit && entry.bodySize > JournalEntry.bodyLimit)
        #expect(try !Self.matches(#"{"when": {"json": {"/tier": "gold"}}}"#, entry))
        #expect(try !Self.matches(#"{"when": {"body": {"contains": "gold"}}}"#, entry))
        #expect(try Self.matches(#"{"when": {"json": {"/tier": {"present": false}}}}"#, entry) == false)
    }

    @Test func aRequestWithoutABodyHasNone() throws {
        #expect(try Self.matches(#"{"when": {"body": {"present": false}}}"#, Self.entry("/a")))
        #expect(try !Self.matches(#"{"when": {"body": {"present": false}}}"#, Self.entry("POST", "/a", body: "x")))
    }

    @Test func everyPartGivenMustHold() throws {
        let body = #"{"method": "POST", "path": "/orders", "status": "2xx", "when": {"json": {"/tier": "gold"}}}"#
        #expect(try Self.matches(body, Self.entry("POST", "/orders", body: #"{"tier": "gold"}"#, status: 201)))
        #expect(try !Self.matches(body, Self.entry("PUT", "/orders", body: #"{"tier": "gold"}"#, status: 201)))
        #expect(try !Self.matches(body, Self.entry("POST", "/orders/1", body: #"{"tier": "gold"}"#, status: 201)))
        #expect(try !Self.matches(body, Self.entry("POST", "/orders", body: #"{"tier": "gold"}"#, status: 400)))
        #expect(try !Self.matches(body, Self.entry("POST", "/orders", body: #"{"tier": "bronze"}"#, status: 201)))
    }

    @Test func aSessionKeepsItsOwnRequests() throws {
        var filter = try Self.filter("{}")
        filter.session = "run-1"
        #expect(filter.matches(Self.entry("/a", session: "run-1"), parser: Self.parser))
        #expect(!filter.matches(Self.entry("/a", session: "run-2"), parser: Self.parser))
        #expect(!filter.matches(Self.entry("/a"), parser: Self.parser))
    }

    // MARK: A long journal, on every core

    /// More entries than one part: the count and the listing are read on every core, from a snapshot, while
    /// other threads keep recording (run under the thread sanitizer too). Each agrees with a plain filter of
    /// the same snapshot, in order.
    @Test func aLongJournalIsReadOnEveryCoreWhileRequestsAreRecorded() async throws {
        let journal = RequestJournal(capacity: 20_000)
        @Sendable func record(_ number: Int) {
            let body = Array(#"{"tier": "\#(number % 3 == 0 ? "gold" : "silver")", "n": \#(number)}"#.utf8)
            let entry = JournalEntry(
                time: Timestamp(seconds: number, nanoseconds: 0), method: "POST", path: "/orders/\(number)", query: "",
                body: body,
                bodySize: body.count, route: "/orders/{id}", response: 0, status: 201
            )
            journal.record(entry) { RequestHeaders.pack("X-Number".utf8, String(number).utf8, into: &$0) }
        }
        for number in 0..<(JournalFilter.serialLimit * 2 + 100) { record(number) }
        let filter = try Self.filter(
            #"{"path": "/orders/{id}", "when": {"json": {"/tier": "gold"}, "headers": {"x-number": {"regex": "\\d+"}}}}"#
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask { for number in 0..<3000 { record(100_000 + writer * 10_000 + number) } }
            }
            group.addTask {
                for _ in 0..<4 {
                    let snapshot = journal.snapshot()
                    let expected = snapshot.entries.filter { filter.matches($0, parser: Self.parser) }
                    #expect(filter.count(in: snapshot.parts, parser: Self.parser) == expected.count)
                    #expect(filter.matching(snapshot.parts, parser: Self.parser).map(\.path) == expected.map(\.path))
                    #expect(filter.count(in: snapshot.entries, parser: Self.parser) == expected.count)
                    #expect(expected.count > JournalFilter.serialLimit / 2)
                }
            }
            try await group.waitForAll()
        }
        #expect(journal.entries.count == JournalFilter.serialLimit * 2 + 100 + 6000)
    }

    // MARK: The query of GET requests

    @Test func theQueryTakesMethodPathStatusUnmatchedAndSession() throws {
        let query = URLEncodedForm(
            parsing: "method=get&path=%2Fusers%2F%7Bid%7D&status=2xx&unmatched=false&session=run-1")
        guard case .success(let filter) = JournalFilter.parse(query: query) else { Issue.record("refused"); return }
        #expect(filter.method == "get")
        #expect(filter.path?.description == "/users/{id}")
        #expect(filter.status == .inClass(2))
        #expect(filter.unmatched == false)
        #expect(filter.session == "run-1")
    }

    @Test(arguments: [
        (
            "stauts=404",
            "unknown filter 'stauts'; requests takes 'method', 'path', 'status', 'unmatched' and 'session'; did you mean 'status'?; conditions on headers, query or body go in the body of POST requests/find"
        ),
        ("unmatched=yes", "'unmatched' must be true or false, found 'yes'"),
        (
            "status=99",
            #"'status' 99 is not a status; give one from 100 to 599 (0 for a fault), or a class such as "4xx""#
        ),
        ("path=/a/**/b", "'**' must be the last path component, but '/a/**/b' has 'b' after it"),
        ("method=", #"'method' '' is not a method such as "GET" or "POST""#),
    ])
    func aBadQueryIsRefused(_ query: String, _ message: String) {
        guard case .failure(let problem) = JournalFilter.parse(query: URLEncodedForm(parsing: query)) else {
            Issue.record("\(query) was taken")
            return
        }
        #expect(problem.message == message)
    }

    // MARK: Headers read in place

    @Test func packedHeadersAreReadInPlaceInOrder() {
        var packed: [UInt8] = []
        for (name, value) in [("Accept", "*/*"), ("X-Tag", "a"), ("x-tag", ""), ("Host", "h")] {
            RequestHeaders.pack(name.utf8, value.utf8, into: &packed)
        }
        let headers = RequestHeaders(reading: PackedHeaders(packed))
        #expect(headers.all.map { "\($0.name)=\($0.value)" } == ["Accept=*/*", "X-Tag=a", "x-tag=", "Host=h"])
        #expect(headers.values(named: "x-tag") == ["a", ""])
        #expect(RequestHeaders(reading: PackedHeaders([])).all.isEmpty)
        var repacked: [UInt8] = []
        headers.pack(into: &repacked)
        #expect(repacked == packed)
    }
}

extension [String] {
    fileprivate var pair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
