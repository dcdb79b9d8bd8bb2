import Foundation
import Testing

/// doc/admin-api.md: every row of the admin API table, against the real binary.
@Suite("admin API")
struct AdminAPITests {
    static let exchanges: [String: TreeEntry] = [
        "users/{id}/GET/configuration.json": #"[{"body": "first"}, {"body": "second"}, {"body": "third"}]"#,
        "users/POST/configuration.json": #"{"status_code": 201, "body": {"id": 7}}"#,
        "GET/": .folder,
    ]
    static let configuration = #"{"headers": {"X-Mock": "yes"}, "watch": false}"#

    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try response.json() as? [String: Any], "not a JSON object: \(response.text)")
    }

    static func array(_ response: HTTPResponse) throws -> [[String: Any]] {
        try #require(try response.json() as? [[String: Any]], "not a JSON array: \(response.text)")
    }

    @Test("health answers ok with the number of exchanges, with the global headers")
    func health() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let response = try await server.client.get("/__espressomartini/health")
        #expect(response.statusCode == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("X-Mock") == "yes")
        let body = try Self.object(response)
        #expect(body["status"] as? String == "ok")
        #expect(body["exchanges"] as? Int == 3)
    }

    @Test("exchanges lists method, route, folder, responses and live call counts (HEAD counted)")
    func exchangesWithCalls() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        _ = try await server.client.get("/users/1")
        _ = try await server.client.head("/users/2")
        let list = try Self.array(try await server.client.get("/__espressomartini/exchanges"))
        #expect(list.map { "\($0["method"]!) \($0["route"]!)" } == ["GET /", "POST /users", "GET /users/{id}"])
        let users = try #require(list.first { $0["route"] as? String == "/users/{id}" })
        #expect(users["folder"] as? String == "users/{id}/GET")
        #expect(users["responses"] as? Int == 3)
        #expect(users["calls"] as? Int == 2)
        #expect(list.first { $0["route"] as? String == "/users" }?["calls"] as? Int == 0)
    }

    @Test("reset puts every counter back to 0: sequences start over")
    func resetAll() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        #expect(try await server.client.get("/users/1").text == "first")
        #expect(try await server.client.get("/users/1").text == "second")
        _ = try await server.client.send("POST", "/users")
        let reset = try await server.client.send("POST", "/__espressomartini/reset")
        #expect(reset.statusCode == 204)
        #expect(reset.body.isEmpty)
        #expect(try await server.client.get("/users/1").text == "first")
        let list = try Self.array(try await server.client.get("/__espressomartini/exchanges"))
        #expect(list.first { $0["route"] as? String == "/users" }?["calls"] as? Int == 0)
    }

    @Test("reset with method and route resets only that exchange; any spelling that matches the same requests")
    func resetOne() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        _ = try await server.client.get("/users/1")
        _ = try await server.client.send("POST", "/users")
        let reset = try await server.client.send("POST", "/__espressomartini/reset?method=GET&route=/users/%7Bid%7D")
        #expect(reset.statusCode == 204)
        var list = try Self.array(try await server.client.get("/__espressomartini/exchanges"))
        #expect(list.first { $0["route"] as? String == "/users/{id}" }?["calls"] as? Int == 0)
        #expect(list.first { $0["route"] as? String == "/users" }?["calls"] as? Int == 1)

        let byWildcard = try await server.client.send("POST", "/__espressomartini/reset?method=post&route=/users")
        #expect(byWildcard.statusCode == 204)
        _ = try await server.client.get("/users/1")
        #expect(
            try await server.client.send("POST", "/__espressomartini/reset?method=GET&route=/users/*").statusCode == 204
        )
        list = try Self.array(try await server.client.get("/__espressomartini/exchanges"))
        #expect(list.allSatisfy { $0["calls"] as? Int == 0 })
    }

    @Test("reset of an exchange that does not exist is 404; method without route is 400")
    func resetErrors() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let missing = try await server.client.send("POST", "/__espressomartini/reset?method=DELETE&route=/users")
        #expect(missing.statusCode == 404)
        #expect((try Self.object(missing))["error"] is String)
        #expect(try await server.client.send("POST", "/__espressomartini/reset?method=GET").statusCode == 400)
    }

    @Test(
        "reload re-reads the tree (200 with the count); a broken tree is 422 with the errors and the old tree serves on"
    )
    func reloadEndpoint() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        try tree.write(#"{"body": "added"}"#, at: "network-exchanges/added/GET/configuration.json")
        let reloaded = try await server.client.send("POST", "/__espressomartini/reload")
        #expect(reloaded.statusCode == 200)
        #expect((try Self.object(reloaded))["exchanges"] as? Int == 4)
        #expect(try await server.client.get("/added").text == "added")

        try tree.write("{\n  \"status_code\": 700\n}", at: "network-exchanges/added/GET/configuration.json")
        let failed = try await server.client.send("POST", "/__espressomartini/reload")
        #expect(failed.statusCode == 422)
        let errors = try #require((try Self.object(failed))["errors"] as? [String])
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasSuffix(
                "network-exchanges/added/GET/configuration.json:2:18: error: 'status_code' 700 is out of range; use a status from 200 to 599"
            ) == true)
        #expect(try await server.client.get("/added").text == "added")
        #expect(
            await server.waitForStandardErrorLine { $0.contains("configuration.json:2:18: error: 'status_code' 700") }
                != nil)
    }

    @Test("requests: the journal of non-admin requests in arrival order, with every field")
    func journal() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        _ = try await server.client.get("/users/42?expand=true&x=%20y", headers: [("X-Trace", "a"), ("X-Trace", "b")])
        _ = try await server.client.get("/__espressomartini/health")
        _ = try await server.client.send(
            "POST", "/users", headers: [("Content-Type", "application/json")], body: Array(#"{"name":"ada"}"#.utf8))
        _ = try await server.client.get("/nowhere")
        let entries = try Self.array(try await server.client.get("/__espressomartini/requests"))
        try #require(entries.count == 3)

        let first = entries[0]
        #expect(first["method"] as? String == "GET")
        #expect(first["path"] as? String == "/users/42")
        #expect(first["query"] as? String == "expand=true&x=%20y")
        #expect(first["route"] as? String == "/users/{id}")
        #expect(first["response"] as? Int == 0)
        #expect(first["status"] as? Int == 200)
        #expect(first["body"] as? String == "")
        #expect(first["body_size"] as? Int == 0)
        let headers = try #require(first["headers"] as? [String: String])
        #expect(headers["X-Trace"] == "a, b")
        #expect(headers["Host"] != nil)
        let time = try #require(first["time"] as? String)
        #expect(time.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$"#, options: .regularExpression) != nil)

        #expect(entries[1]["method"] as? String == "POST")
        #expect(entries[1]["query"] as? String == "")
        #expect(entries[1]["body"] as? String == #"{"name":"ada"}"#)
        #expect(entries[1]["body_size"] as? Int == 14)
        #expect(entries[1]["status"] as? Int == 201)
        #expect(entries[2]["path"] as? String == "/nowhere")
        #expect(entries[2]["route"] is NSNull)
        #expect(entries[2]["response"] is NSNull)
        #expect(entries[2]["status"] as? Int == 404)
    }

    @Test("the journal keeps the first 64 KiB of a body, replacing invalid UTF-8, and the real size")
    func journalBodyLimit() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let body = [UInt8(0xFF)] + Array(repeating: UInt8(ascii: "a"), count: 100_000)
        _ = try await server.client.send("POST", "/users", body: body)
        let entry = try #require(try Self.array(try await server.client.get("/__espressomartini/requests")).first)
        #expect(entry["body_size"] as? Int == 100_001)
        let kept = try #require(entry["body"] as? String)
        #expect(kept.hasPrefix("\u{FFFD}aaa"))
        #expect(kept.unicodeScalars.count == 65_536)
    }

    @Test("the journal holds the last 1000 requests, and DELETE empties it")
    func journalCapacityAndClear() async throws {
        let tree = try TemporaryTree(
            exchanges: Self.exchanges, configuration: #"{"watch": false, "log_level": "ERROR"}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        for index in 0..<1005 { _ = try await server.client.get("/users/\(index)") }
        let entries = try Self.array(try await server.client.get("/__espressomartini/requests"))
        #expect(entries.count == 1000)
        #expect(entries.first?["path"] as? String == "/users/5")
        #expect(entries.last?["path"] as? String == "/users/1004")

        let cleared = try await server.client.send("DELETE", "/__espressomartini/requests")
        #expect(cleared.statusCode == 204)
        #expect(try Self.array(try await server.client.get("/__espressomartini/requests")).isEmpty)
    }

    @Test("unknown admin paths are 404, wrong methods 405 with Allow")
    func adminErrors() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: Self.configuration)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        #expect(try await server.client.get("/__espressomartini/nothing").statusCode == 404)
        #expect(try await server.client.get("/__espressomartini").statusCode == 404)
        let wrong = try await server.client.get("/__espressomartini/reload")
        #expect(wrong.statusCode == 405)
        #expect(wrong.header("Allow") == "POST")
        #expect(
            try await server.client.send("POST", "/__espressomartini/requests").header("Allow") == "GET, HEAD, DELETE")
    }

    @Test("\"admin\": false turns the prefix off: plain 404s, and the requests still work")
    func adminOff() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"admin": false}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        for path in ["/__espressomartini/health", "/__espressomartini/exchanges", "/__espressomartini/requests"] {
            let response = try await server.client.get(path)
            #expect(response.statusCode == 404)
            #expect((try Self.object(response))["error"] is String)
        }
        #expect(try await server.client.send("POST", "/__espressomartini/reset").statusCode == 404)
        #expect(try await server.client.get("/users/1").text == "first")
    }
}
