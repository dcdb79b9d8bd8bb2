import Foundation
import Testing

/// doc/matching.md: the path is split as sent, then each segment decoded, so `%2F` is data inside its
/// segment (RFC 3986): GitHub's `ref` (`heads/main`), a file path in a `{path}` capture.
@Suite("an encoded slash stays in its segment")
struct EncodedSlashTests {
    static let json = [("Content-Type", "application/json")]

    static func tree() throws -> TemporaryTree {
        try TemporaryTree(exchanges: [
            "git/refs/{ref}/PATCH/configuration.json": .text(
                #"""
                {"variants": [
                  {"when": {"path": {"ref": "heads/main"}},
                   "responses": {"template": true, "body": "main: {{request.pathParameters.ref}}"}},
                  {"responses": {"template": true, "body": "other {{request.pathParameters.ref}} of {{request.path}}"}}]}
                """#),
            "git/refs/heads/GET/configuration.json": .text(#"{"body": "the heads folder"}"#),
            "files/{path}/GET/configuration.json": .text(
                #"""
                {"javascript": "function response(request) { return Response.ok(Body.json({components: request.pathComponents, path: request.pathParameters.path})); }"}
                """#),
        ])
    }

    @Test("%2F does not split the segment: {name} captures, variants, templates and scripts see one value")
    func oneSegment() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client

        let main = try await client.send("PATCH", "/git/refs/heads%2Fmain")
        #expect(main.statusCode == 200 && main.text == "main: heads/main", "\(main)")
        let lower = try await client.send("PATCH", "/git/refs/heads%2ffeature%2Fx")
        #expect(lower.text == "other heads/feature/x of /git/refs/heads/feature/x", "\(lower)")
        // Sent unencoded, the slash splits: /git/refs/heads/main has no PATCH exchange of four segments.
        #expect(try await client.send("PATCH", "/git/refs/heads/main").statusCode == 404)
        #expect(try await client.get("/git/refs/heads").text == "the heads folder")

        let script = try await client.get("/files/docs%2FREADME.md")
        #expect(script.statusCode == 200, "\(script)")
        let answer = try JSONSerialization.jsonObject(with: Data(script.body)) as? [String: Any]
        #expect(answer?["components"] as? [String] == ["/", "files", "docs/README.md"], "\(script)")
        #expect(answer?["path"] as? String == "docs/README.md", "\(script)")
    }

    @Test("a decoded '..' segment is still refused, a segment holding a '/' and dots is not one")
    func dotSegments() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/files/%2e%2e%2Fx/..").statusCode == 400)
        #expect(try await server.client.get("/files/%2E%2e").statusCode == 400)
        let dots = try await server.client.get("/files/a%2F..")
        let answer = try JSONSerialization.jsonObject(with: Data(dots.body)) as? [String: Any]
        #expect(dots.statusCode == 200 && answer?["path"] as? String == "a/..", "\(dots)")
    }

    @Test("explain and the journal's path filters split the path the same way")
    func explainAndJournal() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        #expect(try await client.send("PATCH", "/git/refs/heads%2Fmain").statusCode == 200)

        // explain?path= holds the explained path percent-encoded once more: %252F is its %2F.
        let explained = try await client.get(
            "/__espressomartini/explain?method=PATCH&path=%2Fgit%2Frefs%2Fheads%252Fmain")
        let explanation = try JSONSerialization.jsonObject(with: Data(explained.body)) as? [String: Any]
        let exchange = explanation?["exchange"] as? [String: Any]
        #expect(exchange?["route"] as? String == "/git/refs/{ref}", "\(explained)")
        #expect(explanation?["variant"] as? Int == 0, "\(explained)")

        let counted = try await client.send(
            "POST", "/__espressomartini/requests/count", headers: Self.json,
            body: Array(#"{"method": "PATCH", "path": "/git/refs/{ref}"}"#.utf8))
        #expect(counted.statusCode == 200 && counted.text.contains(#""count":1"#), "\(counted)")
        let fourSegments = try await client.send(
            "POST", "/__espressomartini/requests/count", headers: Self.json,
            body: Array(#"{"path": "/git/refs/heads/main"}"#.utf8))
        #expect(fourSegments.text.contains(#""count":0"#), "\(fourSegments)")

        let command = try await ServerProcess.runToCompletion(
            ["explain", "PATCH", "/git/refs/heads%2Fmain"], in: tree.url)
        #expect(command.exitCode == 0 && command.standardOutput.contains("/git/refs/{ref}"), "\(command)")
    }
}
