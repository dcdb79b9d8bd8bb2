import EspressoMartiniClient
import Foundation
import Testing

/// `MockServer.start(exchanges:)` and `restart(exchanges:)` against the real binary, over HTTP.
@Suite struct DeclaredServerTests {
    struct User: Codable, Equatable {
        let name: String
    }

    @Test func itServesEachKindWithItsContentType() async throws {
        let folder = try Fixture.temporaryFolder()
        defer { Fixture.remove(folder) }
        let image = folder.appendingPathComponent("avatar.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]).write(to: image)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .prettyPrinted
        let server = try await MockServer.start(exchanges: [
            NetworkExchange(
                request: .init(method: .post, path: "api/v1/user"),
                responses: [
                    .init(
                        status: 201, headers: ["Location": "/api/v1/user/7"],
                        kind: .json(User(name: "Ada"), encoder: encoder))
                ]),
            NetworkExchange(request: .init(method: .get, path: "text"), response: .init(kind: .string("héllo"))),
            NetworkExchange(
                request: .init(method: .get, path: "bytes"), response: .init(kind: .data(Data([0, 1, 2])))),
            NetworkExchange(
                request: .init(method: .get, path: ["users", "*", "avatar"]),
                response: .init(kind: .fileContent(pathToFile: image.path))),
            NetworkExchange(request: .init(method: .delete, path: "api/v1/user/{id}"), response: .init(status: 204)),
        ])
        defer { server.stop() }

        let created = try await Fixture.fetch(server, "POST", "/api/v1/user")
        #expect(created.status == 201)
        #expect(created.headers["location"] == "/api/v1/user/7")
        #expect(created.headers["content-type"] == "application/json")
        #expect(created.body == (try encoder.encode(User(name: "Ada"))))

        let text = try await Fixture.get(server, "/text")
        #expect(text.text == "héllo")
        #expect(text.headers["content-type"] == "text/plain; charset=utf-8")

        let bytes = try await Fixture.get(server, "/bytes")
        #expect(bytes.body == Data([0, 1, 2]))
        #expect(bytes.headers["content-type"] == "application/octet-stream")

        let avatar = try await Fixture.get(server, "/users/ada/avatar")
        #expect(avatar.body == (try Data(contentsOf: image)))
        #expect(avatar.headers["content-type"] == "image/png")

        #expect(try await Fixture.fetch(server, "DELETE", "/api/v1/user/7").status == 204)
    }

    @Test func sequencesVariantsAndTemplatesAnswerAsTheTreeWould() async throws {
        let server = try await MockServer.start(exchanges: [
            NetworkExchange(
                request: .init(method: .get, path: "colours"),
                responses: [.init(kind: .string("red")), .init(kind: .string("green"))], sequence: .loop),
            NetworkExchange(
                request: .init(method: .get, path: "api/v1/products"),
                variants: [
                    .init(when: [.query("page", "2")], response: .init(kind: .string("page 2"))),
                    .init(response: .init(kind: .string("page 1"))),
                ]),
            NetworkExchange(
                request: .init(method: .put, path: "api/v1/orders/{id}"),
                response: .init(
                    status: 201, headers: ["Location": "/api/v1/orders/{{request.pathParameters.id}}"],
                    kind: .json(["id": "{{request.pathParameters.id}}"]), template: true)),
            NetworkExchange(request: .init(method: .get, path: "broken"), response: .init(fault: .emptyResponse)),
        ])
        defer { server.stop() }

        var colours: [String] = []
        for _ in 0..<3 { colours.append(try await Fixture.get(server, "/colours").text) }
        #expect(colours == ["red", "green", "red"])
        #expect(try await Fixture.get(server, "/api/v1/products?page=2").text == "page 2")
        #expect(try await Fixture.get(server, "/api/v1/products").text == "page 1")
        let order = try await Fixture.fetch(server, "PUT", "/api/v1/orders/A-42")
        #expect(order.status == 201)
        #expect(order.headers["location"] == "/api/v1/orders/A-42")
        #expect(order.text == #"{"id":"A-42"}"#)
        await #expect(throws: (any Error).self) { try await Fixture.get(server, "/broken") }
    }

    @Test func theFolderIsAnOrdinaryTreeAndGoesAtStop() async throws {
        let server = try await MockServer.start(exchanges: [
            NetworkExchange(request: .init(method: .get, path: "api/v1/user"), response: .init(kind: .string("ada")))
        ])
        let folder = try #require(server.requestsFolder)
        #expect(folder.hasSuffix("/network-exchanges"))
        #expect(
            try Fixture.text(URL(fileURLWithPath: folder).appendingPathComponent("api/v1/user/GET/configuration.json"))
                .contains(#""body": "ada""#))
        let temporaryRoot = URL(fileURLWithPath: folder).deletingLastPathComponent().path
        #expect(FileManager.default.fileExists(atPath: temporaryRoot))
        server.stop()
        #expect(!FileManager.default.fileExists(atPath: temporaryRoot))
    }

    @Test func releasingTheServerRemovesTheFolderToo() async throws {
        var root: String?
        do {
            let server = try await MockServer.start(exchanges: [])
            root = server.requestsFolder.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
            #expect(try await Fixture.get(server, "/anything").status == 404)
        }
        #expect(!FileManager.default.fileExists(atPath: try #require(root)))
    }

    @Test func exchangesThatCannotBeWrittenStartNothing() async throws {
        await #expect(throws: MockServerError.invalidArgument("GET /x: it has no response; give at least one")) {
            try await MockServer.start(exchanges: [
                NetworkExchange(request: .init(method: .get, path: "x"), responses: [])
            ])
        }
        do {
            _ = try await MockServer.start(exchanges: [
                NetworkExchange(request: .init(method: .get, path: "x"), response: .init(status: 700))
            ])
            Issue.record("a tree with a status of 700 was served")
        } catch let MockServerError.didNotStart(detail) {
            #expect(detail.contains("'status_code' 700 is out of range"), "the server's own words: \(detail)")
        }
    }

    @Test func restartServesNewExchangesOnTheSamePort() async throws {
        let server = try await MockServer.start(exchanges: [
            NetworkExchange(request: .init(method: .get, path: "api/v1/user"), response: .init(kind: .string("ada")))
        ])
        defer { server.stop() }
        let url = server.baseURL
        #expect(try await Fixture.get(server, "/api/v1/user").text == "ada")

        try await server.restart(exchanges: [
            NetworkExchange(request: .init(method: .get, path: "api/v1/user"), response: .init(kind: .string("bob"))),
            NetworkExchange(request: .init(method: .get, path: "api/v1/cart"), response: .init(kind: .json([1, 2]))),
        ])
        #expect(server.baseURL == url)
        #expect(try await Fixture.get(server, "/api/v1/user").text == "bob")
        #expect(try await Fixture.get(server, "/api/v1/cart").text == "[1,2]")

        try await server.session("run-1").restart(exchanges: [])
        #expect(try await Fixture.get(server, "/api/v1/user").status == 404)
        let root = URL(fileURLWithPath: try #require(server.requestsFolder)).deletingLastPathComponent()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).count == 2, "the link and one tree")
    }

    @Test func aRestartTheServerRefusesKeepsTheOldExchanges() async throws {
        let server = try await MockServer.start(exchanges: [
            NetworkExchange(request: .init(method: .get, path: "api/v1/user"), response: .init(kind: .string("ada")))
        ])
        defer { server.stop() }
        do {
            try await server.restart(exchanges: [
                NetworkExchange(request: .init(method: .get, path: "api/v1/user"), response: .init(status: 700))
            ])
            Issue.record("a tree with a status of 700 was served")
        } catch let MockServerError.refused(status, _, errors) {
            #expect(status == 422)
            #expect(errors.count == 1)
            #expect(errors.first?.hasSuffix("'status_code' 700 is out of range; use a status from 200 to 599") == true)
        }
        #expect(try await Fixture.get(server, "/api/v1/user").text == "ada")
        await #expect(throws: MockServerError.self) {
            try await server.restart(exchanges: [
                NetworkExchange(request: .init(method: .get, path: "x"), responses: [])
            ])
        }
        #expect(try await Fixture.get(server, "/api/v1/user").text == "ada")
    }

    @Test func restartNeedsAServerStartedFromExchanges() async throws {
        let server = try await MockServer.start(requestsFolder: Fixture.tree)
        defer { server.stop() }
        do {
            try await server.restart(exchanges: [])
            Issue.record("a tree's server was restarted with exchanges")
        } catch let MockServerError.notStartedFromExchanges(message) {
            #expect(message.hasPrefix("restart(exchanges:) replaces the exchanges of a server started with"))
            #expect(message.contains(Fixture.tree))
        }
        await #expect(throws: MockServerError.self) {
            try await MockServer(baseURL: server.baseURL).restart(exchanges: [])
        }
    }
}
