import Foundation
import Testing

/// doc/matching.md HEAD: from a HEAD exchange when there is one, else exactly as GET without the body.
@Suite("HEAD")
struct HeadRequestTests {
    @Test("HEAD via a GET exchange: same status, headers and Content-Length, no body")
    func headLikeGet() async throws {
        let bytes = TestBytes.pseudoRandom(count: 300_000, seed: 7)
        let tree = try TemporaryTree(exchanges: [
            "doc/GET/configuration.json":
                #"{"status_code": 203, "headers": {"X-Doc": "d", "Set-Cookie": ["a=1", "b=2"]}, "body": {"hello": "world"}}"#,
            "blob/GET/configuration.json": #"{"response_file": "blob.bin"}"#,
            "blob/GET/blob.bin": .bytes(bytes),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        // Two GETs first would move the counter; this exchange has one response, so it repeats.
        let get = try await server.client.get("/doc")
        let head = try await server.client.head("/doc")
        #expect(head.statusCode == get.statusCode)
        #expect(head.statusCode == 203)
        #expect(head.header("X-Doc") == "d")
        #expect(head.headers(named: "Set-Cookie") == ["a=1", "b=2"])
        #expect(head.header("Content-Type") == get.header("Content-Type"))
        #expect(head.contentLength == get.body.count)
        #expect(head.body.isEmpty, "HEAD sent \(head.body.count) body bytes")

        let blob = try await server.client.head("/blob")
        #expect(blob.statusCode == 200)
        #expect(blob.contentLength == bytes.count)
        #expect(blob.header("Content-Type") == "application/octet-stream")
        #expect(blob.body.isEmpty)
    }

    @Test("a HEAD exchange wins over GET for HEAD")
    func headExchangeWins() async throws {
        let tree = try TemporaryTree(exchanges: [
            "h/GET/configuration.json": #"{"status_code": 200, "body": "get body"}"#,
            "h/HEAD/configuration.json": #"{"status_code": 299, "headers": {"X-From": "head"}}"#,
            "g/{id}/HEAD/configuration.json": #"{"status_code": 298}"#,
            "g/lit/GET/configuration.json": #"{"body": "literal get"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let head = try await server.client.head("/h")
        #expect(head.statusCode == 299)
        #expect(head.header("X-From") == "head")
        #expect(head.body.isEmpty)
        #expect(try await server.client.get("/h").text == "get body")
        // The most specific route with a HEAD exchange answers HEAD, before a GET on a more literal route.
        #expect(try await server.client.head("/g/lit").statusCode == 298)
    }

    @Test("HEAD where there is no GET: 405; on an unknown path: 404, without body")
    func headWithoutGet() async throws {
        let tree = try TemporaryTree(exchanges: ["p/POST/configuration.json": #"{"body": "posted"}"#])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let head = try await server.client.head("/p")
        #expect(head.statusCode == 405)
        #expect(head.header("Allow") == "POST")
        #expect(head.body.isEmpty)
        let missing = try await server.client.head("/missing")
        #expect(missing.statusCode == 404)
        #expect(missing.body.isEmpty)
    }
}

extension HeadRequestTests {
    /// Headers copied from a real API's response often include `Transfer-Encoding: chunked`.
    @Test("HEAD sends no body bytes even when the exchange's headers say Transfer-Encoding: chunked")
    func headWithChunkedHeader() async throws {
        let tree = try TemporaryTree(exchanges: [
            "copied/GET/configuration.json":
                #"{"body": "hello world", "headers": {"Transfer-Encoding": "chunked", "Server": "nginx"}}"#,
            "next/GET/configuration.json": #"{"body": "next"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let head = try await server.client.head("/copied")
        #expect(head.statusCode == 200)
        #expect(
            head.body.isEmpty, "HEAD sent body bytes: \(String(decoding: head.body, as: UTF8.self).debugDescription)")
        // On a kept-alive connection any such bytes would be taken for the start of the next response.
        let responses = try await server.client.keepAlive([("HEAD", "/copied"), ("GET", "/next")], pipelined: false)
        #expect(responses.map(\.statusCode) == [200, 200])
        #expect(responses.last?.text == "next")
    }
}

extension HeadRequestTests {
    @Test("HEAD without any HEAD exchange goes where GET would: past a more literal route that lacks GET")
    func headFollowsGetRouting() async throws {
        let tree = try TemporaryTree(exchanges: [
            "y/lit/POST/configuration.json": #"{"status_code": 201, "body": "post lit"}"#,
            "y/{id}/GET/configuration.json": #"{"status_code": 203, "body": "get param"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let get = try await server.client.get("/y/lit")
        #expect(get.statusCode == 203)
        let head = try await server.client.head("/y/lit")
        #expect(head.statusCode == 203)
        #expect(head.contentLength == "get param".utf8.count)
        #expect(head.body.isEmpty)
    }
}
