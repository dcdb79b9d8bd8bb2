import Foundation
import Testing

/// doc/command-line.md `endpoints`: the listing, sorted by route (byte-wise) then method, in text and as JSON.
@Suite("endpoints")
struct EndpointsCommandTests {
    static func tree() throws -> TemporaryTree {
        try TemporaryTree(exchanges: [
            "GET/": .folder,
            "Zeta/GET/configuration.json": #"{"stauts_code": 200}"#,
            "api/*/users/GET/": .folder,
            "api/options/GET/": .folder,
            "files/**/GET/configuration.json": #"{"response_file": "x.bin", "delay": 0.5}"#,
            "files/**/GET/x.bin": .bytes([0, 1, 2]),
            "orders/{id}/PUT/": .folder,
            "users/GET/configuration.json": """
            [
              {"status_code": 202, "body": {"state": "pending"}},
              {"status_code": 200, "response_file": "done.json", "headers": {"Set-Cookie": ["a=1", "b=2"], "X-One": "1"}, "delay": 1.5}
            ]
            """,
            "users/GET/done.json": #"{"state": "done"}"#,
            "users/POST/configuration.json": #"{"status_code": 201, "body": "created"}"#,
            "users/delete/": .folder,
            "users/:id/GET/": .folder,
        ])
    }

    static let expectedOrder: [(method: String, route: String, folder: String)] = [
        ("GET", "/", "GET"),
        ("GET", "/Zeta", "Zeta/GET"),
        ("GET", "/api/*/users", "api/*/users/GET"),
        ("GET", "/api/options", "api/options/GET"),
        ("GET", "/files/**", "files/**/GET"),
        ("PUT", "/orders/{id}", "orders/{id}/PUT"),
        ("DELETE", "/users", "users/delete"),
        ("GET", "/users", "users/GET"),
        ("POST", "/users", "users/POST"),
        ("GET", "/users/:id", "users/:id/GET"),
    ]

    @Test("text: one line per exchange, sorted by route byte-wise then method, method then route then responses")
    func textListing() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        let lines = outcome.standardOutputLines
        try #require(lines.count == Self.expectedOrder.count, "\(outcome)")
        var rests: [String: String] = [:]
        for (line, expected) in zip(lines, Self.expectedOrder) {
            let match = line.wholeMatch(of: /(?<method>[A-Z]+) +(?<route>\S+)(?<rest>.*)/)
            #expect(match?.method == Substring(expected.method), "line '\(line)', expected \(expected)")
            #expect(match?.route == Substring(expected.route), "line '\(line)', expected \(expected)")
            rests["\(expected.method) \(expected.route)"] = match.map { String($0.rest) }
        }
        let users = try #require(rests["GET /users"])
        for part in ["202", "pending", "200", "done.json", "1.5"] {
            #expect(users.contains(part), "GET /users line lacks \(part): \(users)")
        }
        let pending = try #require(users.range(of: "202"))
        let done = try #require(users.range(of: "done.json"))
        #expect(pending.lowerBound < done.lowerBound, "responses out of order: \(users)")
        let files = try #require(rests["GET /files/**"])
        #expect(files.contains("x.bin") && files.contains("0.5") && files.contains("200"), "\(files)")
        #expect(rests["POST /users"]?.contains("201") == true)
        #expect(rests["POST /users"]?.contains("created") == true)

        // The warning goes to standard error, never into the listing.
        #expect(outcome.standardError.contains("stauts_code"))
        #expect(!outcome.standardOutput.contains("warning"))
    }

    @Test(
        "--json: an array of {method, route, folder, responses[{status_code, headers, response_file|body, delay}], sequence}"
    )
    func jsonListing() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["endpoints", "--json"], in: tree.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        let exchanges = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]], "\(outcome)")
        try #require(exchanges.count == Self.expectedOrder.count)
        for (exchange, expected) in zip(exchanges, Self.expectedOrder) {
            #expect(Set(exchange.keys) == ["method", "route", "folder", "responses", "sequence"], "\(exchange)")
            #expect(exchange["sequence"] as? String == "repeat_last")
            #expect(exchange["method"] as? String == expected.method)
            #expect(exchange["route"] as? String == expected.route)
            #expect(exchange["folder"] as? String == expected.folder)
            let responses = try #require(exchange["responses"] as? [[String: Any]])
            #expect(!responses.isEmpty)
            for response in responses {
                #expect(response["status_code"] is Int, "\(response)")
                #expect(response["headers"] is [String: Any], "\(response)")
                #expect(response.keys.contains("delay"), "\(response)")
                #expect(!(response.keys.contains("body") && response.keys.contains("response_file")))
            }
        }
        let root = try #require(exchanges.first?["responses"] as? [[String: Any]])
        #expect(root.count == 1)
        #expect(root[0]["status_code"] as? Int == 200)
        #expect(root[0]["delay"] is NSNull)
        #expect(root[0]["body"] == nil && root[0]["response_file"] == nil)

        let users = try #require(exchanges[7]["responses"] as? [[String: Any]])
        try #require(users.count == 2)
        #expect(users[0]["status_code"] as? Int == 202)
        #expect((users[0]["body"] as? [String: Any])?["state"] as? String == "pending")
        #expect(users[0]["delay"] is NSNull)
        #expect(users[1]["status_code"] as? Int == 200)
        #expect(users[1]["response_file"] as? String == "done.json")
        #expect((users[1]["delay"] as? Double) == 1.5)
        let headers = try #require(users[1]["headers"] as? [String: Any])
        #expect(headers["Set-Cookie"] as? [String] == ["a=1", "b=2"])
        #expect(headers["X-One"] as? String == "1")

        let post = try #require(exchanges[8]["responses"] as? [[String: Any]])
        #expect(post.first?["body"] as? String == "created")
        #expect(post.first?["status_code"] as? Int == 201)
        let files = try #require(exchanges[4]["responses"] as? [[String: Any]])
        #expect(files.first?["response_file"] as? String == "x.bin")
        #expect((files.first?["delay"] as? Double) == 0.5)
    }

    @Test("an empty requests folder lists nothing and exits 0")
    func emptyTree() async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let text = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(text.exitCode == 0, "\(text)")
        #expect(
            text.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                || !text.standardOutput.contains("/"))
        let json = try await ServerProcess.runToCompletion(["endpoints", "--json"], in: tree.url)
        #expect(json.exitCode == 0, "\(json)")
        let array = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [Any]
        #expect(array?.isEmpty == true, "\(json)")
    }

    @Test("faults, delay ranges and sequence modes are shown, in text and as JSON")
    func faultsDelayRangesAndModes() async throws {
        let tree = try TemporaryTree(exchanges: [
            "flaky/GET/configuration.json": """
            {"sequence": "loop", "responses": [
              {"fault": "connection_reset"},
              {"status_code": 200, "body": "ok", "delay": {"min": 0.1, "max": 2}}
            ]}
            """,
            "once/GET/configuration.json":
                #"{"sequence": "once", "responses": [{"fault": "truncated_body", "body": "abcd"}]}"#,
        ])
        defer { tree.remove() }
        let text = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(text.exitCode == 0, "\(text)")
        #expect(
            text.standardOutput == """
                GET  /flaky  1: 200 no body fault connection_reset · 2: 200 body "ok" delay 0.1–2s (sequence loop)
                GET  /once   1: 200 body "abcd" fault truncated_body (sequence once)

                """, "\(text.standardOutput)")
        let json = try await ServerProcess.runToCompletion(["endpoints", "--json"], in: tree.url)
        let exchanges = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]], "\(json)")
        #expect(exchanges.map { $0["sequence"] as? String } == ["loop", "once"])
        let flaky = try #require(exchanges.first?["responses"] as? [[String: Any]])
        #expect(flaky[0]["fault"] as? String == "connection_reset")
        #expect((flaky[1]["delay"] as? [String: Double]) == ["min": 0.1, "max": 2])
        #expect(flaky[1]["fault"] == nil)
    }
}
