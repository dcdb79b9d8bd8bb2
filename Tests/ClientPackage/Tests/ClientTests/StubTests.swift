import EspressoMartiniClient
import Foundation
import Testing

/// `stub(_:)`: runtime exchanges added to a running server, in the default view and in session views.
@Suite struct StubTests {
    static func user(_ name: String) -> NetworkExchange {
        NetworkExchange(request: .init(method: .get, path: "api/v1/user"), response: .init(kind: .json(["name": name])))
    }

    @Test func aStubAnswersUntilItIsRemoved() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        #expect(try await Fixture.get(server, "/api/v1/user").status == 404)

        let stub = try await server.stub(Self.user("Ada"))
        #expect(stub.id.isEmpty == false)
        #expect(stub.session == nil)
        #expect(stub.exchange.description == "GET /api/v1/user")
        let answer = try await Fixture.get(server, "/api/v1/user")
        #expect(answer.text == #"{"name":"Ada"}"#)
        #expect(answer.headers["content-type"] == "application/json")
        #expect(try await Fixture.get(server.session("any"), "/api/v1/user").status == 200, "a server-wide stub")

        try await stub.remove()
        #expect(try await Fixture.get(server, "/api/v1/user").status == 404)
        do {
            try await stub.remove()
            Issue.record("a stub was removed twice")
        } catch let MockServerError.refused(status, message, _) {
            #expect(status == 404)
            #expect(message.contains(stub.id))
        }
    }

    @Test func inlineBodiesArriveByteForByteWithTheirTypes() async throws {
        let folder = try Fixture.temporaryFolder()
        defer { Fixture.remove(folder) }
        let image = folder.appendingPathComponent("avatar.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]).write(to: image)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let server = try await MockServer.start(exchanges: [])
        defer { server.stop() }
        let cases: [(String, NetworkExchange.Kind, Data, String?)] = [
            ("text", .string("héllo"), Data("héllo".utf8), "text/plain; charset=utf-8"),
            ("bytes", .data(Data([0, 1, 2])), Data([0, 1, 2]), "application/octet-stream"),
            (
                "json", .json(["b": 1, "a": 2], encoder: encoder), try encoder.encode(["b": 1, "a": 2]),
                "application/json"
            ),
            ("file", .fileContent(pathToFile: image.path), try Data(contentsOf: image), "image/png"),
            ("empty", .empty, Data(), nil),
        ]
        for (path, kind, body, contentType) in cases {
            try await server.stub(
                NetworkExchange(request: .init(method: .get, path: path), response: .init(kind: kind)))
            let answer = try await Fixture.get(server, "/" + path)
            #expect(answer.body == body, "\(path)")
            #expect(answer.headers["content-type"] == contentType, "\(path)")
        }
    }

    @Test func aSessionsStubAnswersThatSessionOnly() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        let first = server.session("run-1"), second = server.session("run-2")
        let stub = try await first.stub(Self.user("Ada"))
        #expect(stub.session == "run-1")
        try await second.stub(Self.user("Bob"))

        #expect(try await Fixture.get(first, "/api/v1/user").text == #"{"name":"Ada"}"#)
        #expect(try await Fixture.get(second, "/api/v1/user").text == #"{"name":"Bob"}"#)
        #expect(try await Fixture.get(server, "/api/v1/user").status == 404, "not the default session's")
        #expect(try await Fixture.get(server.session("run-3"), "/api/v1/user").status == 404)

        try await server.stub(Self.user("Everyone"))
        #expect(try await Fixture.get(server.session("run-3"), "/api/v1/user").text == #"{"name":"Everyone"}"#)
        #expect(try await Fixture.get(first, "/api/v1/user").text == #"{"name":"Ada"}"#, "the session's wins")

        try await first.removeAllStubs()
        #expect(try await Fixture.get(first, "/api/v1/user").text == #"{"name":"Everyone"}"#)
        #expect(try await Fixture.get(second, "/api/v1/user").text == #"{"name":"Bob"}"#, "another session's stays")
        try await server.removeAllStubs()
        #expect(try await Fixture.get(second, "/api/v1/user").status == 404, "every stub of the server goes")
    }

    @Test func aStubWinsOverTheTreesExchangeOfItsRoute() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        #expect(try await Fixture.get(server, "/api/v1/orders/7").text.contains("pending"))
        let stub = try await server.stub(
            NetworkExchange(
                request: .init(method: .get, path: "api/v1/orders/:orderID"),
                response: .init(status: 503, kind: .string("down"))))
        #expect(try await Fixture.get(server, "/api/v1/orders/7").status == 503)
        try await server.stub(
            NetworkExchange(
                request: .init(method: .get, path: "api/v1/orders/42"), response: .init(kind: .string("42"))))
        #expect(try await Fixture.get(server, "/api/v1/orders/42").text == "42", "a literal beats {id}")
        try await stub.remove()
        #expect(try await Fixture.get(server, "/api/v1/orders/7").text.contains("shipped"), "the tree answers again")
    }

    @Test func aStubWithSequencesAndVariantsKeepsItsOwnCounters() async throws {
        let server = try await MockServer.start(exchanges: [])
        defer { server.stop() }
        try await server.stub(
            NetworkExchange(
                request: .init(method: .post, path: "api/v1/login"),
                variants: [
                    .init(
                        when: [.json("/password", "espresso")],
                        responses: [.init(kind: .string("welcome")), .init(status: 429)]),
                    .init(response: .init(status: 401)),
                ]))
        let right = Data(#"{"password": "espresso"}"#.utf8)
        #expect(try await Fixture.fetch(server, "POST", "/api/v1/login", body: right).text == "welcome")
        #expect(try await Fixture.fetch(server, "POST", "/api/v1/login", body: Data("{}".utf8)).status == 401)
        #expect(try await Fixture.fetch(server, "POST", "/api/v1/login", body: right).status == 429)
        let run = server.session("run-1")
        #expect(try await Fixture.fetch(run, "POST", "/api/v1/login", body: right).text == "welcome", "per session")
        try await server.reset()
        #expect(try await Fixture.fetch(server, "POST", "/api/v1/login", body: right).text == "welcome")
    }

    @Test func aBadStubIsRefusedWithEveryProblem() async throws {
        let server = try await MockServer.start(exchanges: [])
        defer { server.stop() }
        do {
            try await server.stub(
                NetworkExchange(
                    request: .init(method: .get, path: "x"),
                    variants: [
                        .init(when: [.path("id", "7"), .query("q", .regex("(unclosed"))], response: .init(status: 700))
                    ]))
            Issue.record("a bad stub was taken")
        } catch let MockServerError.refused(status, message, errors) {
            #expect(status == 400)
            #expect(errors.count >= 2, "\(errors)")
            #expect(errors.allSatisfy { $0.hasPrefix("request body:") }, "\(errors)")
            #expect(message == errors.first)
            #expect(errors.contains { $0.contains("'status_code' 700 is out of range") }, "\(errors)")
            #expect(errors.contains { $0.contains("does not compile") }, "\(errors)")
        }
        await #expect(throws: MockServerError.self) {
            try await server.stub(NetworkExchange(request: .init(method: .get, path: [.literal("__espressomartini")])))
        }
    }

    @Test func aBodyOverOneMebibyteIsRefused() async throws {
        let server = try await MockServer.start(exchanges: [])
        defer { server.stop() }
        do {
            try await server.stub(
                NetworkExchange(
                    request: .init(method: .get, path: "big"),
                    response: .init(kind: .data(Data(repeating: 7, count: 1024 * 1024)))))
            Issue.record("a stub over 1 MiB was taken")
        } catch let MockServerError.refused(status, _, _) {
            #expect(status == 413)
        }
    }

    @Test func pastMaxRuntimeExchangesTheServerSaysWhichKey() async throws {
        let configuration = try Fixture.temporaryFolder()
        defer { Fixture.remove(configuration) }
        let file = configuration.appendingPathComponent("configuration.json")
        try Data(#"{"max_runtime_exchanges": 2}"#.utf8).write(to: file)
        let server = try await MockServer.start(exchanges: [], configuration: file.path)
        defer { server.stop() }
        try await server.stub(NetworkExchange(request: .init(method: .get, path: "a")))
        try await server.session("run-1").stub(NetworkExchange(request: .init(method: .get, path: "b")))
        do {
            try await server.stub(NetworkExchange(request: .init(method: .get, path: "c")))
            Issue.record("a third stub was taken")
        } catch let MockServerError.refused(status, message, _) {
            #expect(status == 429)
            #expect(message.contains("max_runtime_exchanges"))
        }
    }

    @Test func stubsOutliveARestart() async throws {
        let server = try await MockServer.start(exchanges: [])
        defer { server.stop() }
        try await server.stub(Self.user("Ada"))
        try await server.restart(exchanges: [
            NetworkExchange(request: .init(method: .get, path: "api/v1/cart"), response: .init(kind: .string("cart")))
        ])
        #expect(try await Fixture.get(server, "/api/v1/user").text == #"{"name":"Ada"}"#)
        #expect(try await Fixture.get(server, "/api/v1/cart").text == "cart")
    }
}
