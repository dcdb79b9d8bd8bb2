import Foundation
import Testing

/// doc/matching.md global headers: on every response, below the exchange's own headers and the derived type.
@Suite("global headers")
struct GlobalHeaderTests {
    static let configuration = """
        {"headers": {
          "X-Global": "g",
          "X-Both": "global",
          "X-Multi": ["m1", "m2"],
          "Content-Type": "text/x-global",
          "Access-Control-Allow-Origin": "*"
        }}
        """

    static func tree() throws -> TemporaryTree {
        try TemporaryTree(
            exchanges: [
                "json/GET/configuration.json": #"{"body": {"a": 1}, "headers": {"x-both": "exchange"}}"#,
                "typed/GET/configuration.json": #"{"body": "t", "headers": {"Content-Type": "text/x-exchange"}}"#,
                "file/GET/configuration.json": #"{"response_file": "f.png"}"#,
                "file/GET/f.png": .bytes(TestBytes.pngLike),
                "empty/GET/": .folder,
                "only/POST/": .folder,
            ],
            configuration: configuration
        )
    }

    static func expectGlobal(_ response: HTTPResponse, _ what: String) {
        #expect(response.headers(named: "X-Global") == ["g"], "\(what)")
        #expect(response.headers(named: "X-Multi") == ["m1", "m2"], "\(what)")
        #expect(response.headers(named: "Access-Control-Allow-Origin") == ["*"], "\(what)")
    }

    @Test("global headers are on every response: exchanges, HEAD, 400, 404 and 405")
    func onEveryResponse() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        let json = try await client.get("/json")
        Self.expectGlobal(json, "200")
        Self.expectGlobal(try await client.get("/empty"), "200 without body")
        Self.expectGlobal(try await client.head("/json"), "HEAD")
        let notFound = try await client.get("/nope")
        #expect(notFound.statusCode == 404)
        Self.expectGlobal(notFound, "404")
        let notAllowed = try await client.get("/only")
        #expect(notAllowed.statusCode == 405)
        Self.expectGlobal(notAllowed, "405")
        let badPath = try await client.get("/a/../json")
        #expect(badPath.statusCode == 400)
        Self.expectGlobal(badPath, "400")
    }

    @Test("precedence: the exchange's header, then the derived type, then the global one")
    func precedence() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        let json = try await client.get("/json")
        #expect(
            json.headers(named: "X-Both") == ["exchange"],
            "the exchange's header must replace the global one (names are case-insensitive)")
        #expect(
            json.headers(named: "Content-Type") == ["application/json"],
            "the derived type must beat the global Content-Type")
        let typed = try await client.get("/typed")
        #expect(typed.headers(named: "Content-Type") == ["text/x-exchange"])
        #expect(typed.headers(named: "X-Both") == ["global"])
        let file = try await client.get("/file")
        #expect(file.headers(named: "Content-Type") == ["image/png"])
        #expect(file.body == TestBytes.pngLike)
        let notFound = try await client.get("/nope")
        #expect(
            notFound.headers(named: "Content-Type") == ["application/json"],
            "the 404 JSON body's type must beat the global Content-Type")
    }
}
