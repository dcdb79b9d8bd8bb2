import Foundation
import Testing

/// doc/command-line.md `GET /__espressomartini/explain`: the JSON of `explain --json` against the tree in service, with its
/// live counters and the admin request's own headers.
@Suite("admin explain")
struct ExplainAdminTests {
    static let exchanges: [String: TreeEntry] = [
        "users/{id}/GET/configuration.json": """
        {"variants": [
          {"when": {"headers": {"X-Role": "admin"}}, "responses": [{"body": "first"}, {"body": "second"}]},
          {"when": {"query": {"page": "2"}}, "responses": {"status_code": 206}}
        ]}
        """
    ]

    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try response.json() as? [String: Any], "not a JSON object: \(response.text)")
    }

    @Test(
        "the same JSON as explain --json, the live counters moving the response, the admin request's headers standing in"
    )
    func explainsAgainstTheTreeInService() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let explain = "/__espressomartini/explain?method=GET&path=%2Fusers%2F7%3Fpage%3D2"
        let fromServer = try await server.client.get(explain)
        #expect(fromServer.statusCode == 200)
        #expect(fromServer.header("Content-Type") == "application/json")
        let command = try await ServerProcess.runToCompletion(
            ["explain", "GET", "/users/7?page=2", "--json"], in: tree.url)
        #expect(fromServer.text + "\n" == command.standardOutput, "\(command)")
        #expect(try Self.object(fromServer)["variant"] as? Int == 1)

        let asAdmin = [("X-Role", "admin")]
        let before = try Self.object(try await server.client.get(explain, headers: asAdmin))
        #expect(before["variant"] as? Int == 0)
        #expect((before["response"] as? [String: Any])?["body"] as? String == "first")
        #expect(try await server.client.get("/users/7", headers: asAdmin).text == "first")
        let after = try Self.object(try await server.client.get(explain, headers: asAdmin))
        let response = try #require(after["response"] as? [String: Any])
        #expect(response["body"] as? String == "second")
        #expect(response["calls"] as? Int == 1)
        #expect(
            try await server.client.get("/users/7", headers: asAdmin).text == "second", "explaining moved no counter")
    }

    @Test(
        "without method or path: 400; a method other than GET or HEAD: 405",
        arguments: [
            ("GET", "/__espressomartini/explain?method=GET", 400),
            ("GET", "/__espressomartini/explain?path=/users/1", 400),
            ("POST", "/__espressomartini/explain?method=GET&path=/users/1", 405),
            ("GET", "/__espressomartini/explain?method=PUT&path=/users/1", 200),
        ])
    func errors(_ method: String, _ target: String, _ status: Int) async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.send(method, target).statusCode == status)
    }
}
