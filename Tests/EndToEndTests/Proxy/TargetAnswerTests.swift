import Foundation
import Testing

/// How the proxy reads what a plain-HTTP target answers (its own HTTP/1.1 client, doc/recording.md): every
/// way an answer can be framed, a kept-alive connection the target closes, a target given as `localhost`,
/// and a target that does not speak HTTP.
@Suite("Proxy: the target's answers")
struct TargetAnswerTests {
    /// Runs `body` with a server forwarding misses of an empty tree to an upstream of its own, given as
    /// `target` says (its URL by default).
    static func withProxy(
        target: (Upstream) -> String = { $0.url }, _ body: (ServerProcess, Upstream) async throws -> Void
    ) async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", target(upstream)])
        defer { server.stop() }
        try await body(server, upstream)
    }

    @Test(
        "an answer ended by the connection's end, a chunked one with an extension and a trailer, one after 103 Early Hints: each passes whole"
    )
    func framings() async throws {
        try await Self.withProxy { server, upstream in
            for _ in 0..<2 {
                // Known whole before the client's answer starts, it goes with its length; else chunked.
                let unframed = try await server.client.get("/unframed")
                #expect(
                    unframed.statusCode == 200
                        && Self.body(of: unframed) == "unframed: the end of the connection ends me", "\(unframed.text)")
                let chunked = try await server.client.get("/trailers")
                #expect(chunked.statusCode == 200 && Self.body(of: chunked) == "espresso martini", "\(chunked.text)")
                let hinted = try await server.client.get("/hints")
                #expect(hinted.statusCode == 200 && hinted.text == #"{"hints": "before me"}"#, "\(hinted.text)")
            }
        }
    }

    /// The answer's body as text, without its chunk framing if it is chunked (nil: chunked, but not as
    /// HTTP/1.1 says).
    static func body(of response: HTTPResponse) -> String? {
        guard response.header("Transfer-Encoding") == "chunked" else { return response.text }
        return dechunked(response.body)
    }

    /// A chunked body's bytes without its framing, as text (nil when it is not chunked as HTTP/1.1 says).
    static func dechunked(_ body: [UInt8]) -> String? {
        var rest = body[...]
        var decoded: [UInt8] = []
        while let lineEnd = rest.firstRange(of: Array("\r\n".utf8)) {
            guard let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) else {
                return nil
            }
            if size == 0 { return String(decoding: decoded, as: UTF8.self) }
            let data = rest[lineEnd.upperBound...]
            guard data.count >= size + 2 else { return nil }
            decoded += data.prefix(size)
            rest = data.dropFirst(size + 2)
        }
        return nil
    }

    @Test("a request sent on a kept-alive connection that the target then closes unanswered is sent again on a new one")
    func closedConnectionRetried() async throws {
        try await Self.withProxy { server, upstream in
            for round in 1...3 {
                let first = try await server.client.get("/then-close")
                #expect(first.statusCode == 200 && first.text.contains(#""count": \#(round)"#), "\(first.text)")
                // Sent at once, on the connection the target closes 0.3 s later without reading it.
                let second = try await server.client.get("/json")
                #expect(second.statusCode == 200 && second.text == #"{"id": 1, "name": "espresso"}"#, "\(second.text)")
            }
            let hits = try await upstream.hits().paths
            #expect(hits["/json"] == 3 && hits["/then-close"] == 3, "\(hits)")
        }
    }

    @Test("a target given as http://localhost:PORT is reached, whichever of its addresses listens")
    func localhost() async throws {
        try await Self.withProxy(target: { "http://localhost:\($0.port)" }) { server, upstream in
            let answer = try await server.client.get("/echo/here")
            #expect(answer.statusCode == 200, "\(answer.text)")
            let echoed = try #require(try answer.json() as? [String: Any])
            let headers = try #require(echoed["headers"] as? [[String]])
            #expect(headers.contains(["Host", "localhost:\(upstream.port)"]), "\(headers)")
        }
    }

    @Test(
        "a target that answers with no HTTP gets 502 upstream_unavailable saying so, and the next request is answered")
    func notHTTP() async throws {
        try await Self.withProxy { server, upstream in
            let garbage = try await server.client.get("/garbage")
            let object = try #require(try garbage.json() as? [String: String], "\(garbage.text)")
            #expect(garbage.statusCode == 502 && object["error"] == "upstream_unavailable", "\(garbage.text)")
            #expect(object["reason"]?.contains("malformed") == true, "\(garbage.text)")
            #expect(try await server.client.get("/json").statusCode == 200)
        }
    }
}
