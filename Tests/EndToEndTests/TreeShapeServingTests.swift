import Foundation
import Testing

/// doc/tree.md over HTTP: what the folder names make the server answer.
@Suite("tree shapes over HTTP")
struct TreeShapeServingTests {
    static func body(_ text: String) -> TreeEntry { .text(#"{"body": "\#(text)"}"#) }

    @Test("method folder names are case-insensitive; a method-named folder with sub-folders is a path component")
    func methodFolderNames() async throws {
        let tree = try TemporaryTree(exchanges: [
            "users/delete/configuration.json": Self.body("deleted"),
            "users/Get/": .folder,
            "api/options/GET/configuration.json": Self.body("api options"),
            "api/user/delete/": .folder,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.send("DELETE", "/users").text == "deleted")
        #expect(try await server.client.get("/users").statusCode == 200)
        #expect(try await server.client.get("/api/options").text == "api options")
        #expect(try await server.client.send("OPTIONS", "/api").statusCode == 404)
        #expect(try await server.client.send("DELETE", "/api/user").statusCode == 200)
    }

    @Test("names starting with . are ignored")
    func dotNamesIgnored() async throws {
        let tree = try TemporaryTree(exchanges: [
            ".hidden/GET/configuration.json": Self.body("hidden"),
            "shown/.GET/configuration.json": Self.body("hidden method"),
            "shown/GET/configuration.json": Self.body("shown"),
            "shown/GET/.DS_Store": .bytes([0, 1, 2]),
            ".git/HEAD": "ref: refs/heads/main",
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/shown").text == "shown")
        #expect(try await server.client.get("/.hidden").statusCode == 404)  // '.hidden' is a name, not a dot segment
        #expect(try await server.client.get("/shown/.GET").statusCode == 404)
        let listing = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(listing.exitCode == 0, "\(listing)")
        #expect(listing.standardOutputLines.count == 1, "\(listing.standardOutput)")
        #expect(!listing.standardOutput.contains("hidden"))
    }

    @Test("percent-encoded request paths match the folder names they decode to")
    func percentEncodedLiterals() async throws {
        let tree = try TemporaryTree(exchanges: [
            "hello world/GET/configuration.json": Self.body("spaced"),
            "café/GET/configuration.json": Self.body("coffee"),
            "users/{id}/GET/configuration.json": Self.body("user"),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/hello%20world").text == "spaced")
        #expect(try await server.client.get("/caf%C3%A9").text == "coffee")
        #expect(try await server.client.get("/us%65rs/42").text == "user")
        #expect(try await server.client.get("/users/a%20b").text == "user")
    }
}
