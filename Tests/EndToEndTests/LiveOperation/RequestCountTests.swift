import Foundation
import Testing

/// Checking what the app sent (doc/testing.md): `requests/count`, `requests/find`, the filters of
/// `GET requests` and `journal_size`, against the real binary.
@Suite("checking what the app sent")
struct RequestCountTests {
    static let exchanges: [String: TreeEntry] = [
        "api/v1/orders/POST/configuration.json": #"{"status_code": 201}"#,
        "api/v1/orders/{id}/GET/configuration.json": #"{"body": {"state": "pending"}}"#,
        "api/v1/products/{id}/GET/configuration.json": #"{"body": {"id": 1}}"#,
        "api/v1/login/POST/configuration.json": #"{"status_code": 204}"#,
        "graphql/POST/configuration.json": #"{"body": {"data": {}}}"#,
    ]
    static let configuration = #"{"watch": false, "log_level": "ERROR"}"#
    static let json = [("Content-Type", "application/json")]

    static func count(
        _ server: ServerProcess, _ filter: String, query: String = ""
    ) async throws -> (count: Int?, complete: Bool?, status: Int) {
        let response = try await server.client.send(
            "POST", "/__espressomartini/requests/count" + query, headers: json, body: Array(filter.utf8))
        let object = try? response.json() as? [String: Any]
        return (object?["count"] as? Int, object?["complete"] as? Bool, response.statusCode)
    }

    static func entries(_ response: HTTPResponse) throws -> [[String: Any]] {
        try #require(try response.json() as? [[String: Any]], "not a JSON array: \(response.text)")
    }

    /// The app's requests: orders, a read, a login form, a GraphQL mutation, a miss.
    static func sendTheAppsRequests(to server: ServerProcess) async throws {
        let client = server.client
        _ = try await client.send(
            "POST", "/api/v1/orders?source=app", headers: json + [("Cookie", "cart=7; theme=dark")],
            body: Array(#"{"customer": {"tier": "gold"}, "items": [{"sku": "A-1", "quantity": 2}]}"#.utf8))
        _ = try await client.send(
            "POST", "/api/v1/orders?source=web", headers: json, body: Array(#"{"customer": {"tier": "silver"}}"#.utf8))
        _ = try await client.send("GET", "/api/v1/orders/A-42", headers: [("Authorization", "Bearer t0ken")])
        _ = try await client.send(
            "POST", "/api/v1/login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("user=ada&remember=on".utf8))
        _ = try await client.send(
            "POST", "/graphql", headers: json, body: Array(#"{"query": "mutation AddItem { add { id } }"}"#.utf8))
        _ = try await client.get("/api/v1/product/7")
    }

    @Test("count holds every kind of condition, compiled as a variant's, over what the journal kept")
    func countsByEveryKindOfCondition() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        try await Self.sendTheAppsRequests(to: server)

        for (filter, expected) in [
            ("", 6),
            (#"{}"#, 6),
            (#"{"method": "post"}"#, 4),
            (#"{"method": "POST", "path": "/api/v1/orders", "when": {"json": {"/customer/tier": "gold"}}}"#, 1),
            (#"{"when": {"json": {"/items/0/quantity": {"equals": 2}}}}"#, 1),
            (#"{"when": {"query": {"source": "web"}}}"#, 1),
            (#"{"when": {"cookies": {"cart": "7"}}}"#, 1),
            (#"{"when": {"headers": {"authorization": {"prefix": "Bearer "}}}}"#, 1),
            (#"{"path": "/api/v1/orders/:id", "when": {"path": {"id": {"regex": "A-\\d+"}}}}"#, 1),
            (#"{"when": {"form": {"user": "ada"}}}"#, 1),
            (#"{"when": {"body": {"contains": "silver"}}}"#, 1),
            (#"{"when": {"graphql": {"operation": "AddItem", "type": "mutation"}}}"#, 1),
            (#"{"path": "/api/**"}"#, 5),
            (#"{"path": "/api/v1/product/{id}"}"#, 1),
            (#"{"status": "2xx"}"#, 5),
            (#"{"status": 404}"#, 1),
            (#"{"unmatched": true}"#, 1),
        ] {
            let (count, complete, status) = try await Self.count(server, filter)
            #expect(status == 200, "\(filter)")
            #expect(count == expected, "\(filter)")
            #expect(complete == true, "\(filter)")
        }
    }

    @Test(
        "find answers the matching entries as GET requests lists them; GET requests filters by method, path, status, unmatched"
    )
    func findAndTheListingsFilters() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        try await Self.sendTheAppsRequests(to: server)

        let found = try Self.entries(
            try await server.client.send(
                "POST", "/__espressomartini/requests/find", headers: Self.json,
                body: Array(#"{"when": {"json": {"/customer/tier": "gold"}}}"#.utf8)
            ))
        let all = try Self.entries(try await server.client.get("/__espressomartini/requests"))
        #expect(found.count == 1)
        // Every field the same; a boolean apart, which Foundation on Linux does not compare inside an NSDictionary.
        #expect(
            NSDictionary(dictionary: found[0].filter { $0.key != "proxied" }).isEqual(
                to: all[0].filter { $0.key != "proxied" }), "the same entry, every field")
        #expect(found[0]["proxied"] as? Bool == false && all[0]["proxied"] as? Bool == false)
        #expect(found[0]["query"] as? String == "source=app")
        #expect(found[0]["route"] as? String == "/api/v1/orders")

        for (query, paths) in [
            ("?method=get", ["/api/v1/orders/A-42", "/api/v1/product/7"]),
            ("?path=%2Fapi%2Fv1%2Forders%2F%7Bid%7D", ["/api/v1/orders/A-42"]),
            ("?path=/graphql&method=POST", ["/graphql"]),
            ("?status=204", ["/api/v1/login"]),
            ("?status=4xx", ["/api/v1/product/7"]),
        ] {
            let listed = try Self.entries(try await server.client.get("/__espressomartini/requests" + query))
            #expect(listed.map { $0["path"] as? String } == paths, "\(query)")
        }

        let unmatched = try Self.entries(try await server.client.get("/__espressomartini/requests?unmatched=true"))
        #expect(unmatched.count == 1)
        #expect(unmatched.first?["path"] as? String == "/api/v1/product/7")
        #expect(unmatched.first?["closest"] as? [String] == ["GET /api/v1/products/{id}", "GET /api/v1/orders/{id}"])
        #expect(all.allSatisfy { $0["closest"] == nil })
    }

    @Test("a bad filter is 400 with what is wrong, as a load says it; another method 405; a long body 413")
    func badFiltersAreRefused() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let refused = try await server.client.send(
            "POST", "/__espressomartini/requests/count", headers: Self.json,
            body: Array(
                "{\n  \"method\": \"GET\",\n  \"when\": {\"json\": {\"tier\": \"gold\"}, \"qurey\": {}}\n}".utf8)
        )
        #expect(refused.statusCode == 400)
        let object = try #require(try refused.json() as? [String: Any])
        #expect(
            object["errors"] as? [String] == [
                #"request body:3:21: error: 'tier' is not a JSON Pointer: it must be "" (the whole document) or start with '/', as in '/tier'"#,
                "request body:3:38: error: unknown condition 'qurey'; 'when' takes 'query', 'headers', 'cookies', 'path', 'body', 'body_base64', 'json', 'form', 'multipart' and 'graphql'; did you mean 'query'?",
            ])
        #expect(object["error"] as? String == (object["errors"] as? [String])?.first)

        #expect(try await server.client.get("/__espressomartini/requests/count").statusCode == 405)
        #expect(try await server.client.get("/__espressomartini/requests?stauts=200").statusCode == 400)
        let long = try await server.client.send(
            "POST", "/__espressomartini/requests/find", body: Array(repeating: UInt8(ascii: " "), count: 70_000))
        #expect(long.statusCode == 413)
        #expect(try await server.client.get("/__espressomartini/health").statusCode == 200, "the server carries on")
        let listed = try Self.entries(try await server.client.get("/__espressomartini/requests"))
        #expect(listed.isEmpty, "admin requests are never journaled")
    }

    @Test(
        "journal_size bounds the journal; a count over a journal that dropped requests says it is incomplete until emptied"
    )
    func journalSizeAndCompleteness() async throws {
        let tree = try TemporaryTree(
            exchanges: Self.exchanges, configuration: #"{"watch": false, "log_level": "ERROR", "journal_size": 3}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        for number in 1...3 { _ = try await server.client.get("/api/v1/orders/\(number)") }
        #expect(try await Self.count(server, "{}") == (3, true, 200))
        _ = try await server.client.get("/api/v1/orders/4", headers: [("X-Espressomartini-Session", "run-1")])
        #expect(try await Self.count(server, "{}") == (3, false, 200))
        #expect(
            try await Self.count(server, "{}", query: "?session=run-1") == (1, true, 200),
            "the request dropped was not run-1's")
        let listed = try Self.entries(try await server.client.get("/__espressomartini/requests"))
        #expect(listed.map { $0["path"] as? String } == ["/api/v1/orders/2", "/api/v1/orders/3", "/api/v1/orders/4"])
        #expect(try await server.client.send("DELETE", "/__espressomartini/requests").statusCode == 204)
        _ = try await server.client.get("/api/v1/orders/5")
        #expect(try await Self.count(server, "{}") == (1, true, 200))
    }

    @Test(
        "journal_size out of range is a configuration error with its position",
        arguments: [
            (
                #"{"journal_size": 0}"#,
                "configuration.json:1:18: error: 'journal_size' 0 is out of range; use 1 to 1000000"
            ),
            (
                #"{"journal_size": 1000001}"#,
                "configuration.json:1:18: error: 'journal_size' 1000001 is out of range; use 1 to 1000000"
            ),
            (
                #"{"journal_size": "big"}"#,
                "configuration.json:1:18: error: 'journal_size' must be an integer from 1 to 1000000, found a string"
            ),
        ])
    func journalSizeOutOfRange(_ configuration: String, _ message: String) async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: configuration)
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["run", "--port", "0"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardError.contains(message), "\(outcome)")
    }

    /// Parallel requests from several clients at once, some in a session, counted while they arrive and
    /// once they are all in: each count is at most what was sent, the last ones exact. Run under the thread
    /// sanitizer too (`make test-thread-sanitizer`), where the server binary stops at the first data race.
    @Test("counts are exact under parallel requests, and counting while they arrive is safe")
    func exactUnderParallelRequests() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        let gold = Array(#"{"customer": {"tier": "gold"}}"#.utf8),
            silver = Array(#"{"customer": {"tier": "silver"}}"#.utf8)
        async let golds = ParallelRequests.start(
            48, client: client, method: "POST", target: "/api/v1/orders", headers: Self.json, body: gold)
        async let silvers = ParallelRequests.start(
            32, client: client, method: "POST", target: "/api/v1/orders",
            headers: Self.json + [("X-Espressomartini-Session", "run-1")], body: silver
        )
        async let reads = ParallelRequests.start(32, client: client, target: "/api/v1/orders/7")
        var seen: [Int] = []
        for _ in 0..<10 {
            let (count, _, status) = try await Self.count(
                server, #"{"method": "POST", "when": {"json": {"/customer/tier": "gold"}}}"#)
            #expect(status == 200)
            seen.append(count ?? -1)
        }
        for batch in try await [golds, silvers, reads] {
            for result in try await batch.results() {
                #expect([200, 201].contains(result.response?.statusCode ?? 0), "\(result)")
            }
        }
        #expect(seen.allSatisfy { (0...48).contains($0) }, "\(seen)")
        #expect(
            try await Self.count(server, #"{"method": "POST", "when": {"json": {"/customer/tier": "gold"}}}"#).count
                == 48)
        #expect(
            try await Self.count(server, #"{"when": {"json": {"/customer/tier": "silver"}}}"#, query: "?session=run-1")
                .count == 32)
        #expect(try await Self.count(server, #"{"path": "/api/v1/orders/{id}"}"#).count == 32)
        #expect(try await Self.count(server, "{}").count == 112)
    }

    @Test(
        "a request with a body to a path under the prefix, empty segments and all, reaches the admin API with its body")
    func theAdminBodyArrivesWhateverTheSlashes() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        _ = try await server.client.send("POST", "/api/v1/orders", body: Array(#"{"customer": {"tier": "gold"}}"#.utf8))
        let response = try await server.client.send(
            "POST", "//__espressomartini//requests/count/",
            body: Array(#"{"when": {"json": {"/customer/tier": "silver"}}}"#.utf8)
        )
        #expect(response.text == #"{"count":0,"complete":true}"#)
        let entry = try #require(try Self.entries(try await server.client.get("/__espressomartini/requests")).first)
        #expect(
            entry["body"] as? String == #"{"customer": {"tier": "gold"}}"#,
            "a static exchange's request keeps its body in the journal")
    }
}
