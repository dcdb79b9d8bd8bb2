import Foundation
import Glibc
import Testing

/// Smoke tests: request bodies, garbage and broken connections do not hurt the server.
@Suite("robustness")
struct RobustnessTests {
    static let exchanges: [String: TreeEntry] = [
        "upload/POST/configuration.json": #"{"status_code": 201, "body": {"stored": true}}"#,
        "ping/GET/configuration.json": #"{"body": "pong"}"#,
    ]

    @Test("a POST with a 1 MiB body is answered")
    func largeRequestBody() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        var client = server.client
        client.timeout = 10
        let body = TestBytes.pseudoRandom(count: 1024 * 1024, seed: 99)
        let response = try await client.send(
            "POST", "/upload", headers: [("Content-Type", "application/octet-stream")], body: body)
        #expect(response.statusCode == 201)
        #expect(response.text == #"{"stored":true}"#)
        #expect(try await client.get("/ping").text == "pong")
    }

    @Test("a chunked request body is answered")
    func chunkedRequestBody() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let request =
            "POST /upload HTTP/1.1\r\nHost: \(server.client.authority)\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
            + "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        let raw = try await server.client.sendRaw(Array(request.utf8))
        let response = try HTTPResponse(raw: raw)
        #expect(response.statusCode == 201)
    }

    @Test("garbage on sockets does not crash the server")
    func garbage() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        // Some probes leave a kept-alive or half-sent request open: the client gives up after a short while.
        var client = server.client
        client.timeout = 0.3
        let probes: [[UInt8]] = [
            TestBytes.pseudoRandom(count: 4096, seed: 1),
            TestBytes.pseudoRandom(count: 100, seed: 2) + Array("\r\n\r\n".utf8),
            Array("\r\n\r\n\r\n".utf8),
            Array("GET\r\n\r\n".utf8),
            Array("GET / HTTP/9.9\r\n\r\n".utf8),
            Array("GET /ping HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".utf8),
            Array("GET /ping HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n".utf8),
            Array("GET /\u{0}\u{1}\u{7f}\u{ff} HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            Array("GET /ping HTTP/1.1\r\nHost: x\r\nX-Long: \(String(repeating: "A", count: 70_000))\r\n\r\n".utf8),
            Array("GET /ping HTTP/1.1\r\n".utf8),  // then hang up mid-request
            Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nshort".utf8),  // body cut short
        ]
        for probe in probes {
            _ = try await client.sendRaw(probe)
            #expect(server.isRunning, "the server died after \(probe.prefix(40))")
        }
        let response = try await server.client.get("/ping")
        #expect(response.statusCode == 200)
        #expect(response.text == "pong")
        let outcome = server.stop()
        #expect(outcome.exitCode == 0, "\(outcome)")
    }

    @Test("connections opened and dropped without a request, then normal service")
    func droppedConnections() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        for _ in 0..<50 {
            #expect(server.client.connectionError() == nil)
        }
        #expect(try await server.client.get("/ping").text == "pong")
        let outcome = server.stop()
        #expect(outcome.exitCode == 0, "\(outcome)")
    }
}

extension RobustnessTests {
    @Test(
        "a kept-alive connection answers request after request, pipelined or not, counters moving",
        arguments: [false, true])
    func keepAlive(pipelined: Bool) async throws {
        let tree = try TemporaryTree(exchanges: [
            "seq/GET/configuration.json": #"[{"body": "one"}, {"body": "two"}, {"status_code": 202, "body": "three"}]"#,
            "slow/GET/configuration.json": #"{"delay": 0.3, "body": "slow"}"#,
            "ping/GET/configuration.json": #"{"body": "pong"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let responses = try await server.client.keepAlive(
            [
                ("GET", "/seq"), ("GET", "/slow"), ("HEAD", "/seq"), ("GET", "/missing"), ("GET", "/ping"),
                ("GET", "/seq"),
            ],
            pipelined: pipelined
        )
        try #require(responses.count == 6, "\(responses.map(\.statusCode))")
        #expect(responses.map(\.statusCode) == [200, 200, 200, 404, 200, 202])
        #expect(responses[0].text == "one")
        #expect(responses[1].text == "slow")
        #expect(responses[2].body.isEmpty)
        #expect(responses[2].contentLength == 3)
        #expect(responses[4].text == "pong")
        #expect(responses[5].text == "three")
    }
}

extension RobustnessTests {
    @Test("clients hanging up while their delayed request waits do not hurt the server; it still stops cleanly")
    func hangUpDuringDelay() async throws {
        let tree = try TemporaryTree(exchanges: [
            "slow/GET/configuration.json": #"{"delay": 0.5, "body": "slow"}"#,
            "ping/GET/configuration.json": #"{"body": "pong"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        try await BlockingCall.run {
            for _ in 0..<30 {
                let connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
                try connection.write(client.requestBytes("GET", "/slow"))
                connection.close()  // gone before the answer
            }
        }
        #expect(try await client.get("/ping").text == "pong")
        try await Task.sleep(for: .milliseconds(700))  // the abandoned answers come due
        #expect(server.isRunning)
        #expect(try await client.get("/slow").text == "slow")
        let outcome = server.stop()
        #expect(outcome.exitCode == 0, "\(outcome)")
    }

    @Test("SIGTERM with an idle kept-alive connection open still exits 0 promptly")
    func stopWithIdleKeepAlive() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        let connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
        defer { connection.close() }
        try await BlockingCall.run {
            try connection.write(Array("GET /ping HTTP/1.1\r\nHost: \(client.authority)\r\n\r\n".utf8))
            _ = try connection.readResponse(bodiless: false)
        }
        let outcome = server.stop(timeout: 5)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(!outcome.timedOut)
    }
}
