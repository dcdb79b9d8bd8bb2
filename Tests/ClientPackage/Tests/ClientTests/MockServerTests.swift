import EspressoMartiniClient
import Foundation
import Testing
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client library from a test suite's side, with Swift Testing, against the real binary (found on PATH).
@Suite struct MockServerTests {
    @Test func countsAndFindsWhatTheAppSent() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        #expect(server.baseURL.absoluteString.hasPrefix("http://127.0.0.1:"))

        #expect(
            try await Fixture.send(server, "POST", "/api/v1/orders", json: #"{"tier": "gold", "items": [1, 2]}"#).status
                == 201)
        try await Fixture.send(server, "POST", "/api/v1/orders", json: #"{"tier": "silver"}"#)
        try await Fixture.send(server, "POST", "/api/v1/orders", json: #"{"tier": "gold"}"#)
        try await Fixture.send(server, "GET", "/api/v1/orders/A-42?expand=items")

        #expect(try await server.count() == 4)
        #expect(try await server.count(method: "post") == 3)
        #expect(try await server.count(method: "POST", path: "/api/v1/orders", when: ["json": ["/tier": "gold"]]) == 2)
        #expect(try await server.count(when: ["json": ["/items/1": ["equals": 2]]]) == 1)
        #expect(
            try await server.count(
                path: "/api/v1/orders/{id}", when: ["path": ["id": ["prefix": "A-"]], "query": ["expand": "items"]])
                == 1)
        #expect(try await server.count(path: "/api/**") == 4)
        #expect(try await server.count(when: ["headers": ["Content-Type": ["contains": "json"]]]) == 3)

        let gold = try await server.requests(method: "POST", when: ["json": ["/tier": "gold"]])
        #expect(gold.count == 2)
        #expect(gold.allSatisfy { $0.route == "/api/v1/orders" && $0.status == 201 && $0.method == "POST" })
        #expect((gold.first?.bodyJSON as? [String: Any])?["tier"] as? String == "gold")
        #expect(gold.first?.header("content-type") == "application/json")
        #expect(gold.first?.bodySize == 33)
    }

    @Test func parallelRequestsAreCountedExactly() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<40 {
                group.addTask {
                    try await Fixture.send(server, "POST", "/api/v1/orders", json: #"{"n": \#(number)}"#).status
                }
            }
            for try await status in group { #expect(status == 201) }
        }
        #expect(try await server.count(method: "POST", path: "/api/v1/orders") == 40)
        #expect(try await server.count(when: ["json": ["/n": ["equals": 39]]]) == 1)
    }

    @Test func sessionsKeepTestsApart() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        let first = server.session("run-1"), second = server.session("run-2")
        #expect(first.sessionHeaders == ["X-Espressomartini-Session": "run-1"])
        #expect(server.sessionHeaders.isEmpty)

        #expect(try await Fixture.send(first, "GET", "/api/v1/orders/1").body.contains("pending"))
        #expect(try await Fixture.send(first, "GET", "/api/v1/orders/1").body.contains("shipped"))
        #expect(try await Fixture.send(second, "GET", "/api/v1/orders/1").body.contains("pending"))
        #expect(try await first.count() == 2)
        #expect(try await second.count() == 1)
        #expect(try await server.count() == 3, "without a session, every session's requests")
        #expect(try await first.requests().allSatisfy { $0.session == "run-1" })

        try await first.reset()
        #expect(
            try await Fixture.send(first, "GET", "/api/v1/orders/1").body.contains("pending"),
            "run-1's counters start over")
        #expect(try await Fixture.send(second, "GET", "/api/v1/orders/1").body.contains("shipped"), "run-2's do not")

        try await first.clearRequests()
        #expect(try await first.count() == 0)
        #expect(try await second.count() == 2)
    }

    @Test func theCacheIsReadAndEmptiedPerSession() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        let run = server.session("run-1")
        #expect(try await Fixture.send(server, "POST", "/api/v1/session", json: #"{"username": "ada"}"#).status == 201)
        try await Fixture.send(run, "POST", "/api/v1/session", json: #"{"username": "bob"}"#)
        #expect(try await server.cache()["user"] as? String == "ada")
        #expect(try await run.cache()["user"] as? String == "bob")
        try await server.clearCache()
        #expect(try await server.cache().isEmpty)
        #expect(try await run.cache()["user"] as? String == "bob")
    }

    @Test func reloadReadsTheTreeAgainAndRefusesABrokenOne() async throws {
        let tree = try Fixture.copyOfTree()
        defer { Fixture.remove(tree) }
        let server = try await MockServer.start(requestsFolder: tree.path)
        defer { server.stop() }
        #expect(try await server.reload() == 3)
        let added = tree.appendingPathComponent("api/v1/carts/GET")
        try FileManager.default.createDirectory(at: added, withIntermediateDirectories: true)
        try Data(#"{"body": []}"#.utf8).write(to: added.appendingPathComponent("configuration.json"))
        #expect(try await server.reload() == 4)
        try Data("{\n  \"status_code\": 700\n}".utf8).write(to: added.appendingPathComponent("configuration.json"))
        do {
            try await server.reload()
            Issue.record("a broken tree was reloaded")
        } catch let MockServerError.refused(status, _, errors) {
            #expect(status == 422)
            #expect(errors.count == 1)
            #expect(
                errors.first?.hasSuffix(
                    "api/v1/carts/GET/configuration.json:2:18: error: 'status_code' 700 is out of range; use a status from 200 to 599"
                ) == true)
        }
        #expect(try await Fixture.send(server, "GET", "/api/v1/carts").status == 200, "the tree it had still serves")
    }

    @Test func aBadFilterIsRefusedInTheServersWords() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        do {
            _ = try await server.count(when: ["qurey": ["page": "2"]])
            Issue.record("a bad filter was taken")
        } catch let MockServerError.refused(status, message, _) {
            #expect(status == 400)
            #expect(message.contains("unknown condition 'qurey'"))
            #expect(message.contains("did you mean 'query'?"))
        }
        await #expect(throws: MockServerError.self) { try await server.count(path: "/files/**/x") }
        await #expect(
            throws: MockServerError.invalidArgument(
                "'when' must hold only strings, numbers, booleans, null, arrays and dictionaries: [\"json\": 2024-01-01 00:00:00 +0000]"
            )
        ) {
            try await server.count(when: ["json": Date(timeIntervalSince1970: 1_704_067_200)])
        }
    }

    @Test func aCountIsNeverSilentlyShort() async throws {
        let server = try await MockServer.start(
            requestsFolder: Fixture.tree, configuration: Fixture.folder.appendingPathComponent("journal-5.json").path
        )
        defer { server.stop() }
        for _ in 0..<6 { try await Fixture.send(server, "GET", "/api/v1/orders/1") }
        await #expect(throws: MockServerError.incompleteJournal(count: 5)) { try await server.count() }
        #expect(try await server.requests().count == 5)
        try await server.clearRequests()
        try await Fixture.send(server, "GET", "/api/v1/orders/1")
        #expect(try await server.count() == 1)
    }

    @Test func unmatchedRequestsComeWithTheRoutesMostLikeThem() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        #expect(try await Fixture.send(server, "GET", "/api/v1/order/7").status == 404)
        try await Fixture.send(server, "GET", "/api/v1/orders/7")
        let unmatched = try await server.unmatchedRequests()
        #expect(unmatched.map(\.path) == ["/api/v1/order/7"])
        #expect(unmatched.first?.closest?.first == "GET /api/v1/orders/{id}")
        #expect(unmatched.first?.route == nil)
    }

    @Test func stopIsIdempotentAndReleasingTheServerStopsIt() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        let url = server.baseURL
        #expect(try await MockServer(baseURL: url).count() == 0, "a server already running, reached by its URL")
        server.stop()
        server.stop()
        await #expect(throws: MockServerError.self) { try await MockServer(baseURL: url).count() }

        var released: URL?
        do {
            let scoped = try await MockServer.start(requestsFolder: Fixture.tree)
            released = scoped.baseURL
            let view = scoped.session("run-1")
            #expect(try await view.count() == 0)
        }
        let gone = try #require(released)
        await #expect(throws: MockServerError.self) { try await MockServer(baseURL: gone).count() }
    }

    @Test func aServerThatDoesNotStartSaysWhatItPrinted() async throws {
        do {
            _ = try await MockServer.start(requestsFolder: "/nonexistent/network-exchanges")
            Issue.record("a server started without its tree")
        } catch let MockServerError.didNotStart(detail) {
            #expect(detail.contains("ended with exit status"))
            #expect(detail.contains("/nonexistent/network-exchanges"), "the server's own message: \(detail)")
        }
        do {
            _ = try await MockServer.start(requestsFolder: Fixture.tree, executable: "/nonexistent/espressomartini")
            Issue.record("a missing executable started")
        } catch let MockServerError.executableNotFound(detail) {
            #expect(detail == "/nonexistent/espressomartini is not an executable file")
        }
    }

    /// The admin token travels as `Authorization: Bearer`: a server whose admin API is off answers the admin
    /// path from a `**` exchange that echoes that header back.
    @Test func anAdminTokenIsSentAsABearerToken() async throws {
        let echo = try await MockServer.start(
            requestsFolder: Fixture.folder.appendingPathComponent("echo/network-exchanges").path,
            configuration: Fixture.folder.appendingPathComponent("echo/configuration.json").path
        )
        defer { echo.stop() }
        #expect(
            try await MockServer(baseURL: echo.baseURL, adminToken: "s3cret").cache()["authorization"] as? String
                == "Bearer s3cret")
        #expect(try await MockServer(baseURL: echo.baseURL).cache()["authorization"] as? String == "")
    }
}
