import Foundation
import Testing

/// The serving path as one decision, seen from outside: the journal holds the status a script actually
/// sent, `explain` (command and admin endpoint) plans exactly as the server answers (a CORS preflight, a
/// session's counters), and the access log names a request's session.
@Suite("serving path: plan, commit, send")
struct DecisionPathTests {
    static let exchanges: [String: TreeEntry] = [
        "teapot/GET/configuration.json":
            #"{"javascript": "function response() { return Response.raw(418, 'short and stout'); }"}"#,
        "guarded/GET/configuration.json":
            #"{"javascript": "function response() { return Response.unauthorised(); }", "delay": 0.05}"#,
        "jobs/{id}/GET/configuration.json":
            #"[{"status_code": 202}, {"status_code": 202}, {"status_code": 200, "body": "done"}]"#,
        "cart/GET/configuration.json": #"{"body": "cart"}"#,
    ]

    static func serve(
        _ configuration: String = #"{"watch": false, "cors": true}"#
    ) async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(exchanges: exchanges, configuration: configuration)
        return (tree, try await ServerProcess.serving(tree))
    }

    static func journal(_ server: ServerProcess) async throws -> [[String: Any]] {
        let response = try await server.client.get("/__espressomartini/requests")
        return try #require(try response.json() as? [[String: Any]], "\(response.text)")
    }

    @Test("the journal records the status a script sent, delayed or not")
    func journalHasTheScriptsStatus() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.get("/teapot").statusCode == 418)
        #expect(try await server.client.get("/guarded").statusCode == 401)
        #expect(try await server.client.get("/cart").statusCode == 200)
        let entries = try await Self.journal(server)
        #expect(entries.map { $0["path"] as? String } == ["/teapot", "/guarded", "/cart"])
        #expect(entries.map { $0["status"] as? Int } == [418, 401, 200])
        #expect(entries.map { $0["route"] as? String } == ["/teapot", "/guarded", "/cart"])
    }

    @Test("explain of a CORS preflight says 204, as the server answers, on the command line and the admin endpoint")
    func explainAPreflight() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let preflight = [("Origin", "http://app.test"), ("Access-Control-Request-Method", "GET")]
        #expect(try await server.client.send("OPTIONS", "/cart", headers: preflight).statusCode == 204)

        let command = try await ServerProcess.runToCompletion(
            ["explain", "OPTIONS", "/cart", "--header", "Access-Control-Request-Method: GET", "--json"], in: tree.url
        )
        #expect(command.exitCode == 0, "\(command)")
        let planned = try #require(
            try JSONSerialization.jsonObject(with: Data(command.standardOutput.utf8)) as? [String: Any])
        #expect(planned["status"] as? Int == 204)
        #expect(planned["outcome"] as? String == "cors_preflight")
        #expect(planned["allowed"] as? [String] == ["GET", "HEAD"])

        let text = try await ServerProcess.runToCompletion(
            ["explain", "OPTIONS", "/cart", "--header", "Access-Control-Request-Method: GET"], in: tree.url)
        #expect(text.standardOutput.contains("answer:   204, a CORS preflight"), "\(text.standardOutput)")

        let admin = try await server.client.get(
            "/__espressomartini/explain?method=OPTIONS&path=/cart", headers: [("Access-Control-Request-Method", "GET")])
        let fromServer = try #require(try admin.json() as? [String: Any])
        #expect(fromServer["status"] as? Int == 204)
        #expect(fromServer["outcome"] as? String == "cors_preflight")
        // Without the preflight header, the same OPTIONS request is a 405 on both sides.
        #expect(try await server.client.send("OPTIONS", "/cart").statusCode == 405)
        let plain = try await ServerProcess.runToCompletion(["explain", "OPTIONS", "/cart"], in: tree.url)
        #expect(plain.exitCode == 1 && plain.standardOutput.contains("405"), "\(plain)")
    }

    @Test("explain?session= reads that session's counters: after two calls in it, the third response")
    func explainASession() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let inRun = [("X-Espressomartini-Session", "run-a")]
        #expect(try await server.client.get("/jobs/1", headers: inRun).statusCode == 202)
        #expect(try await server.client.get("/jobs/1", headers: inRun).statusCode == 202)

        func explained(_ query: String, headers: [(String, String)] = []) async throws -> [String: Any] {
            let response = try await server.client.get(
                "/__espressomartini/explain?method=GET&path=/jobs/1" + query, headers: headers)
            return try #require(try response.json() as? [String: Any], "\(response.text)")
        }
        let inSession = try await explained("&session=run-a")
        #expect(inSession["status"] as? Int == 200)
        #expect(inSession["session"] as? String == "run-a")
        #expect((inSession["response"] as? [String: Any])?["position"] as? Int == 2)
        #expect((inSession["response"] as? [String: Any])?["calls"] as? Int == 2)
        // The admin request's own session header says the same; the default session has not moved.
        #expect(try await explained("", headers: inRun)["status"] as? Int == 200)
        let defaultSession = try await explained("")
        #expect(defaultSession["status"] as? Int == 202)
        #expect((defaultSession["response"] as? [String: Any])?["calls"] as? Int == 0)
        // A session the server does not keep starts at 0, and explaining it keeps none.
        #expect(try await explained("&session=never")["status"] as? Int == 202)
        #expect(try await server.client.get("/jobs/1", headers: inRun).statusCode == 200, "explaining moved no counter")
    }

    @Test("the access log names a request's session")
    func accessLogNamesTheSession() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        #expect(
            try await server.client.get("/jobs/7", headers: [("X-Espressomartini-Session", "ci run 42")]).statusCode
                == 202)
        #expect(try await server.client.get("/jobs/8").statusCode == 202)
        let inSession = try #require(await server.waitForStandardErrorLine { $0.contains("/jobs/7") })
        #expect(inSession.hasSuffix("ms session ci run 42"), "\(inSession)")
        let withoutSession = try #require(await server.waitForStandardErrorLine { $0.contains("/jobs/8") })
        #expect(withoutSession.hasSuffix("ms"), "\(withoutSession)")
    }
}
