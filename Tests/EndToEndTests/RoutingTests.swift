import Foundation
import Testing

/// doc/matching.md matching: precedence with backtracking, query strings, empty and dot segments, 404 and 405.
@Suite("routing")
struct RoutingTests {
    static func body(_ text: String) -> TreeEntry { .text(#"{"body": "\#(text)"}"#) }

    static func tree() throws -> TemporaryTree {
        try TemporaryTree(exchanges: [
            "GET/configuration.json": body("root"),
            "a/b/c/GET/configuration.json": body("literal a/b/c"),
            "a/{x}/d/GET/configuration.json": body("param a/{x}/d"),
            "a/**/GET/configuration.json": body("catch-all a/**"),
            "x/lit/GET/configuration.json": body("GET x/lit"),
            "x/{id}/POST/configuration.json": body("POST x/{id}"),
            "api/*/users/GET/configuration.json": body("api/*/users"),
            "items/:id/GET/configuration.json": body("items/:id"),
            "api/options/GET/configuration.json": body("GET api/options"),
            "users/GET/configuration.json": body("GET users"),
            "users/POST/configuration.json": body("POST users"),
        ])
    }

    @Test("literal beats {name}/*, which beats **, with backtracking")
    func precedenceWithBacktracking() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let cases: [(String, String)] = [
            ("/", "root"),
            ("/a/b/c", "literal a/b/c"),
            ("/a/b/d", "param a/{x}/d"),  // literal b has no d below: back to {x}
            ("/a/z/d", "param a/{x}/d"),
            ("/a/b/zz", "catch-all a/**"),  // neither b/… nor {x}/… has zz: back to **
            ("/a/b/c/d", "catch-all a/**"),
            ("/a/b", "catch-all a/**"),
            ("/a/..b/d", "param a/{x}/d"),  // '..b' is not a dot segment
            ("/api/v1/users", "api/*/users"),
            ("/items/42", "items/:id"),
            ("/api/options", "GET api/options"),
        ]
        for (path, expected) in cases {
            let response = try await server.client.get(path)
            #expect(response.statusCode == 200, "\(path)")
            #expect(response.text == expected, "\(path)")
        }
        // `*` is exactly one segment, `**` one or more.
        #expect(try await server.client.get("/api/v1/v2/users").statusCode == 404)
        #expect(try await server.client.get("/api/users").statusCode == 404)
        #expect(try await server.client.get("/a").statusCode == 404)
    }

    @Test("the most specific route that has an exchange for the method answers")
    func mostSpecificRouteWithMethod() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/x/lit").text == "GET x/lit")
        let post = try await server.client.send("POST", "/x/lit")
        #expect(post.statusCode == 200)
        #expect(post.text == "POST x/{id}")
    }

    @Test("the query string plays no part")
    func queryStringIgnored() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        for target in ["/a/b/c?x=1", "/a/b/c?", "/a/b/c?path=/../etc&y=%2e%2e", "/a/b/c?a/b/d"] {
            let response = try await server.client.get(target)
            #expect(response.statusCode == 200, "\(target)")
            #expect(response.text == "literal a/b/c", "\(target)")
        }
        #expect(try await server.client.get("/?q=1").text == "root")
    }

    @Test("empty segments are ignored")
    func emptySegmentsIgnored() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        for target in ["//a//b///c", "/a/b/c/", "/a/b/c//", "//a/b/c?x=1"] {
            let response = try await server.client.get(target)
            #expect(response.statusCode == 200, "\(target)")
            #expect(response.text == "literal a/b/c", "\(target)")
        }
        #expect(try await server.client.get("//").text == "root")
        #expect(try await server.client.get("/users/").text == "GET users")
    }

    @Test(
        "a . or .. segment, also percent-encoded, is answered 400",
        arguments: [
            "/a/../b", "/a/./b/c", "/..", "/.", "/a/b/c/..", "/a/b/c/.",
            "/a/%2e%2e/b", "/a/%2E%2E/b", "/a/%2e%2E/b", "/a/%2e/b/c", "/%2e%2e/a/b/c", "/a/.%2e/b", "/users/..",
        ]
    )
    func dotSegments(target: String) async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.get(target)
        #expect(response.statusCode == 400, "\(target) → \(response.statusCode) \(response.text)")
        #expect(!response.text.contains("literal"), "\(target) reached an exchange")
    }

    @Test(
        "no route matches: 404 with a JSON body {\"error\": …, \"closest\": […]} naming method and path, and the routes most like it"
    )
    func notFound() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        for (method, path) in [("GET", "/nope/here"), ("POST", "/nothing"), ("DELETE", "/x/lit/deeper")] {
            let response = try await server.client.send(method, path)
            #expect(response.statusCode == 404, "\(method) \(path)")
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let object = try #require(try response.json() as? [String: Any], "\(response.text)")
            #expect(Set(object.keys) == ["error", "closest"], "\(response.text)")
            #expect(object["closest"] is [String], "\(response.text)")
            let message = try #require(object["error"] as? String)
            #expect(message.contains(method), "\(message)")
            #expect(message.contains(path), "\(message)")
        }
    }

    @Test("routes match but none has the method: 405 with Allow, HEAD included where there is GET")
    func methodNotAllowed() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let cases: [(String, String, Set<String>)] = [
            ("DELETE", "/users", ["GET", "HEAD", "POST"]),
            ("PUT", "/x/lit", ["GET", "HEAD", "POST"]),  // /x/lit and /x/{id} both match
            ("GET", "/x/other", ["POST"]),  // only /x/{id} matches: no HEAD without GET
            ("PATCH", "/a/b/c", ["GET", "HEAD"]),
            ("PROPFIND", "/users", ["GET", "HEAD", "POST"]),  // a method espressomartini does not know
        ]
        for (method, path, allowed) in cases {
            let response = try await server.client.send(method, path)
            #expect(response.statusCode == 405, "\(method) \(path)")
            let allow = try #require(response.header("Allow"), "\(method) \(path): no Allow header")
            let methods = Set(allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(methods == allowed, "\(method) \(path): Allow: \(allow)")
            #expect(response.headers(named: "Allow").count == 1)
        }
    }

    @Test("an unknown method on an unknown path is 404")
    func unknownMethodUnknownPath() async throws {
        let tree = try Self.tree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.send("PROPFIND", "/not/there")
        #expect(response.statusCode == 404)
        #expect(response.text.contains("PROPFIND"))
        // And the server is still fine.
        #expect(try await server.client.get("/users").text == "GET users")
    }
}
