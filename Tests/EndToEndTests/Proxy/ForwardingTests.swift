import Foundation
import Glibc
import Testing

/// A proxy (`"proxy"`, `run --proxy URL`): what the tree does not answer goes to the target, through the
/// real binary, to the tests' own upstream on loopback.
@Suite("Proxy: forwarding misses")
struct ForwardingTests {
    static let exchanges: [String: TreeEntry] = [
        "json/GET/configuration.json": #"{"body": {"from": "tree"}}"#,
        "methods/GET/configuration.json": #"{"body": "get from the tree"}"#,
        "variants/GET/configuration.json":
            #"{"variants": [{"when": {"query": {"page": "1"}}, "responses": {"body": "page 1 from the tree"}}]}"#,
    ]

    /// The request journal's entries.
    static func journal(_ server: ServerProcess) async throws -> [[String: Any]] {
        try #require(try await server.client.get("/__espressomartini/requests").json() as? [[String: Any]])
    }

    @Test("the tree wins; a 404, a 405 and a request no variant answers go to the target, which answers them")
    func missesAreForwarded() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }

        let fromTree = try await server.client.get("/json")
        #expect(fromTree.statusCode == 200 && fromTree.text == #"{"from":"tree"}"#)
        let missing = try await server.client.get("/counter")
        #expect(missing.statusCode == 200 && missing.text == #"{"count": 1}"#, "\(missing.text)")
        let method = try await server.client.send("DELETE", "/methods")
        #expect(method.statusCode == 404, "the target answers DELETE /methods with its own 404: \(method.text)")
        #expect(method.text == #"{"error": "no route /methods"}"#)
        let variant = try await server.client.get("/variants?page=2")
        #expect(variant.text == #"{"error": "no route /variants"}"#)
        let held = try await server.client.get("/variants?page=1")
        #expect(held.text == "page 1 from the tree")
        let hits = try await upstream.hits().paths
        #expect(
            hits["/json"] == nil && hits["/counter"] == 1 && hits["/methods"] == 1 && hits["/variants"] == 1, "\(hits)")

        let journal = try await Self.journal(server)
        let summary = journal.map {
            "\($0["method"]!) \($0["path"]!) \($0["status"]!) \(($0["proxied"] as? Bool) == true)"
        }
        #expect(
            summary == [
                "GET /json 200 false", "GET /counter 200 true", "DELETE /methods 404 true", "GET /variants 404 true",
                "GET /variants 200 false",
            ])
        let log = server.standardError
        #expect(log.contains("GET /counter 200 forwarded "), "\(log)")
    }

    @Test(
        "Host becomes the target's, X-Forwarded-* are added, the proxy's headers added, hop-by-hop headers dropped both ways"
    )
    func headers() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree(
            configuration: """
                {"proxy": {"target": "\(upstream.url)", "headers": {"X-Api-Key": "k-123", "X-Replaced": "by the proxy"}}}
                """)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let echo = try await server.client.get(
            "/echo/headers?a=1",
            headers: [
                ("Connection", "X-Drop"), ("X-Drop", "dropped"), ("Keep-Alive", "timeout=1"), ("TE", "trailers"),
                ("Upgrade", "h2c"),
                ("Proxy-Authorization", "Basic cHJveHk="), ("X-Forwarded-For", "203.0.113.9"),
                ("X-Replaced", "by the client"), ("X-Kept", "yes"),
            ])
        let object = try #require(try echo.json() as? [String: Any])
        let pairs = try #require(object["headers"] as? [[String]])
        let headers = Dictionary(pairs.map { ($0[0].lowercased(), $0[1]) }, uniquingKeysWith: { $0 + ", " + $1 })
        #expect(object["path"] as? String == "/echo/headers" && object["query"] as? String == "a=1")
        #expect(headers["host"] == "127.0.0.1:\(upstream.port)")
        #expect(headers["x-forwarded-for"] == "203.0.113.9, 127.0.0.1")
        #expect(headers["x-forwarded-proto"] == "http")
        #expect(headers["x-forwarded-host"] == "127.0.0.1:\(server.port)")
        #expect(
            headers["x-api-key"] == "k-123" && headers["x-replaced"] == "by the proxy" && headers["x-kept"] == "yes")
        for dropped in ["x-drop", "keep-alive", "te", "upgrade", "proxy-authorization", "accept", "expect"] {
            #expect(headers[dropped] == nil, "\(dropped) was forwarded: \(headers)")
        }
        #expect(headers["connection"] != "X-Drop")

        let hop = try await server.client.get("/hop")
        #expect(hop.text == #"{"hop": true}"#)
        #expect(hop.header("X-Kept") == "yes")
        for dropped in ["X-Hop", "Keep-Alive", "Proxy-Note"] {
            #expect(hop.header(dropped) == nil, "\(dropped) came back: \(hop.headers)")
        }
        #expect(hop.headers(named: "Date").count == 1, "one Date, the target's: \(hop.headers)")
    }

    @Test("request bodies stream to the target, with their length, or chunked as the client sent them")
    func requestBodies() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }
        var generator = SeededGenerator(seed: 7)
        let body = (0..<3_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let sent = try await server.client.send("POST", "/upload", body: body)
        let object = try #require(try sent.json() as? [String: Int])
        #expect(object["size"] == body.count && object["crc32"] == Int(Self.crc32(body)), "\(sent.text)")

        let chunked = try await ExternalTool.run(
            "curl",
            [
                "-sS", "--max-time", "20", "-H", "Transfer-Encoding: chunked", "--data-binary", "hello, chunked",
                "http://127.0.0.1:\(server.port)/echo/chunked",
            ])
        let echoed = try #require(
            try JSONSerialization.jsonObject(with: Data(chunked.standardOutput.utf8)) as? [String: Any], "\(chunked)")
        #expect(echoed["body"] as? String == "hello, chunked" && echoed["method"] as? String == "POST")
        let empty = try await server.client.send("PUT", "/echo/empty", body: [])
        let emptyObject = try #require(try empty.json() as? [String: Any])
        let emptyHeaders = try #require(emptyObject["headers"] as? [[String]])
        #expect(
            emptyObject["method"] as? String == "PUT" && emptyHeaders.contains(["Content-Length", "0"]), "\(empty.text)"
        )
    }

    @Test(
        "an exchange whose variants read the body: its own answer, or the whole body forwarded, whether decided at its end or past 1 MiB"
    )
    func bodyReadingVariants() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree(exchanges: [
            "upload/POST/configuration.json":
                #"{"variants": [{"when": {"json": {"/kind": "tree"}}, "responses": {"body": "from the tree"}}]}"#
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }
        #expect(
            try await server.client.send("POST", "/upload", body: Array(#"{"kind": "tree"}"#.utf8)).text
                == "from the tree")
        var generator = SeededGenerator(seed: 11)
        for size in [1000, 1_048_576, 3_000_000] {  // decided at the end, with exactly 1 MiB kept, and past 1 MiB
            let body = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let answer = try await server.client.send("POST", "/upload", body: body)
            let object = try #require(try answer.json() as? [String: Int], "\(answer.text)")
            #expect(object["size"] == size && object["crc32"] == Int(Self.crc32(body)), "\(size) bytes: \(answer.text)")
        }
    }

    @Test("HEAD, 204 and binary answers pass as the target sent them")
    func answers() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }
        let png = try await server.client.get("/png")
        let direct = try await upstream.client.get("/png")
        #expect(png.body == direct.body && png.header("Content-Type") == "image/png")
        let gzip = try await server.client.get("/gzip", headers: [("Accept-Encoding", "gzip")])
        let gzipDirect = try await upstream.client.get("/gzip")
        #expect(gzip.header("Content-Encoding") == "gzip" && gzip.body == gzipDirect.body)
        let head = try await server.client.head("/json")
        #expect(head.statusCode == 200 && head.body.isEmpty && head.header("Content-Length") == "29", "\(head.headers)")
        let empty = try await server.client.get("/empty")
        #expect(empty.statusCode == 204 && empty.body.isEmpty)
    }

    @Test("a target that refuses gets 502 upstream_unavailable, a slow one 504 upstream_timeout; nothing is recorded")
    func failingTargets() async throws {
        let closed = try OccupiedPort.closedPort()
        let tree = try TemporaryTree(
            configuration: #"{"proxy": {"target": "http://127.0.0.1:\#(closed)", "record": true}}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let refused = try await server.client.get("/anything")
        let object = try #require(try refused.json() as? [String: String])
        #expect(
            refused.statusCode == 502 && object["error"] == "upstream_unavailable"
                && object["target"] == "http://127.0.0.1:\(closed)")
        #expect(object["reason"]?.isEmpty == false, "\(refused.text)")
        let journal = try await Self.journal(server)
        #expect(journal.last?["status"] as? Int == 502)

        let upstream = try await Upstream()
        // A timeout that a loaded machine's fast answers stay well within, and the slow one does not.
        let slowTree = try TemporaryTree(
            configuration: #"{"proxy": {"target": "\#(upstream.url)", "timeout": 2, "record": true}}"#)
        defer { slowTree.remove() }
        let slowServer = try await ServerProcess.serving(slowTree)
        defer { slowServer.stop() }
        let slow = try await slowServer.client.get("/slow?seconds=8")
        let slowObject = try #require(try slow.json() as? [String: String])
        #expect(
            slow.statusCode == 504 && slowObject["error"] == "upstream_timeout" && slowObject["target"] == upstream.url,
            "\(slow.text)")
        let fast = try await slowServer.client.get("/json")
        #expect(fast.statusCode == 200)
        let recorded = try FileManager.default.subpathsOfDirectory(
            atPath: slowTree.url.appendingPathComponent("network-exchanges").path)
        #expect(
            recorded.contains("json/GET/configuration.json") && !recorded.contains { $0.hasPrefix("slow") },
            "\(recorded)")
        let none = try FileManager.default.subpathsOfDirectory(
            atPath: tree.url.appendingPathComponent("network-exchanges").path)
        #expect(none.filter { !$0.hasPrefix(".") }.isEmpty, "\(none)")
    }

    @Test("connections to the target are kept alive between forwarded requests")
    func keepAlive() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }
        for _ in 0..<20 {
            #expect(try await server.client.get("/json").statusCode == 200)
        }
        let connections = try await upstream.hits().connections
        // The upstream's own /__upstream/hits request is one more connection.
        #expect(connections <= 3, "20 forwarded requests opened \(connections) connections to the target")
    }

    @Test("an HTTPS target is checked against the system's authorities, or ca_file; verify_tls false trusts any")
    func httpsTargets() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-upstream-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TLSTests.makeCertificate("upstream", in: folder)
        let upstream = try await Upstream(
            tls: (
                folder.appendingPathComponent("upstream.pem").path,
                folder.appendingPathComponent("upstream-key.pem").path
            ))
        for (proxy, status) in [
            (#"{"target": "\#(upstream.url)"}"#, 502),
            (
                #"{"target": "\#(upstream.url)", "ca_file": "\#(folder.appendingPathComponent("upstream.pem").path)"}"#,
                200
            ),
            (#"{"target": "\#(upstream.url)", "verify_tls": false}"#, 200),
        ] {
            let tree = try TemporaryTree(configuration: #"{"proxy": \#(proxy)}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let answer = try await server.client.get("/json")
            #expect(answer.statusCode == status, "\(proxy): \(answer.text)")
            if status == 502 { #expect(answer.text.contains("upstream_unavailable")) }
        }
    }

    @Test(
        "credentials are REDACTED in the journal while they reach the target unchanged; the access log never shows them"
    )
    func credentials() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }
        let echo = try await server.client.get(
            "/echo/secret", headers: [("Authorization", "Bearer top-secret"), ("Cookie", "session=cookie-secret")])
        #expect(echo.text.contains("Bearer top-secret") && echo.text.contains("session=cookie-secret"))
        let headers = try #require(try await Self.journal(server).last?["headers"] as? [String: String])
        #expect(headers["Authorization"] == "REDACTED" && headers["Cookie"] == "REDACTED", "\(headers)")
        let everything =
            try await server.client.get("/__espressomartini/requests").text + server.standardError
            + server.standardOutput
        #expect(!everything.contains("top-secret") && !everything.contains("cookie-secret"))
    }

    @Test("explain and endpoints say when a request would be forwarded")
    func explainAndEndpoints() async throws {
        let tree = try TemporaryTree(
            exchanges: Self.exchanges, configuration: #"{"proxy": {"target": "https://api.example.com/v2"}}"#)
        defer { tree.remove() }
        let explained = try await ServerProcess.runToCompletion(["explain", "GET", "/nowhere", "--json"], in: tree.url)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(explained.standardOutput.utf8)) as? [String: Any],
            "\(explained)")
        #expect(
            object["outcome"] as? String == "forwarded"
                && object["forwarded_to"] as? String == "https://api.example.com/v2")
        #expect(explained.exitCode == 1)
        let text = try await ServerProcess.runToCompletion(["explain", "GET", "/variants?page=2"], in: tree.url)
        #expect(
            text.standardOutput.contains(
                "answer:   forwarded to https://api.example.com/v2, as the tree has no answer: 404, no variant of GET /variants holds"
            ), "\(text)")
        let answered = try await ServerProcess.runToCompletion(["explain", "GET", "/json"], in: tree.url)
        #expect(answered.exitCode == 0 && !answered.standardOutput.contains("forwarded"))
        let endpoints = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(
            endpoints.standardOutput.hasSuffix("other requests: forwarded to https://api.example.com/v2\n"),
            "\(endpoints)")
    }

    @Test(
        "stopping: a request in flight is answered; past the grace, one still waiting gets 503, one still streaming is cut; exit 0"
    )
    func stopping() async throws {
        let upstream = try await Upstream()
        // A proxy timeout well past the wait for the hits (20 s at most) and the grace (10 s): on a busy
        // machine the late request must meet the stop, not the timeout.
        let tree = try TemporaryTree(configuration: #"{"proxy": {"target": "\#(upstream.url)", "timeout": 120}}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        async let quick = client.send("GET", "/slow?seconds=3")
        var patient = client
        patient.timeout = 60
        let waiting = patient
        async let late = waiting.send("GET", "/slow?seconds=90")
        async let stalled = ExternalTool.run(
            "curl",
            [
                "-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{size_download}",
                "http://127.0.0.1:\(server.port)/stall",
            ], timeout: 70)
        // Every request reached the target (a busy machine can take its time starting curl).
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let hits = try await upstream.hits().paths
            if hits["/slow"] == 2, hits["/stall"] == 1 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        server.send(signal: SIGTERM)
        #expect(try await quick.statusCode == 200)
        let stopped = try await late
        #expect(stopped.statusCode == 503 && stopped.text.contains("stopping"), "\(stopped.text)")
        let cut = try await stalled
        #expect(cut.status != 0 && cut.standardOutput == "10", "\(cut)")
        let outcome = await server.waitForExit(timeout: 20)
        #expect(outcome.exitCode == 0, "\(outcome)")
    }

    /// CRC-32 (IEEE), as Python's zlib.crc32 computes it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
