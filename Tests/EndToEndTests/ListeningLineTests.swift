import Foundation
import Testing

@Suite("run: the listening line")
struct ListeningLineTests {
    @Test("--port 0 prints exactly one listening line with the real port, and serves on it")
    func listeningLineWithRealPort() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/configuration.json": #"{"body": "pong"}"#])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        #expect(server.host == "127.0.0.1")
        #expect(server.port != 0)
        #expect(server.listeningLine == "espressomartini listening on http://127.0.0.1:\(server.port)")
        let response = try await server.client.get("/ping")
        #expect(response.statusCode == 200)
        #expect(response.text == "pong")

        let outcome = server.stop()
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput == "espressomartini listening on http://127.0.0.1:\(server.port)\n")
    }
}

extension ListeningLineTests {
    @Test("--hostname 0.0.0.0 prints that address and answers on 127.0.0.1")
    func anyIPv4Address() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/configuration.json": #"{"body": "pong"}"#])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--hostname", "0.0.0.0"])
        defer { server.stop() }
        #expect(server.listeningLine == "espressomartini listening on http://0.0.0.0:\(server.port)")
        let response = try await HTTPClient(host: "127.0.0.1", port: server.port).get("/ping")
        #expect(response.text == "pong")
    }

    @Test("the listening line is flushed at once: it is readable while the server runs, before any request")
    func lineFlushedBeforeRequests() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(server.isRunning)
        #expect(server.standardOutput == server.listeningLine + "\n")
        #expect(
            !server.standardError.contains("espressomartini listening"),
            "the listening line belongs on standard output only")
    }
}

extension ListeningLineTests {
    /// A tree that takes the JSON parser a good part of a second to read (a 16 MiB body), the window
    /// in which to connect, with `more` exchanges beside it.
    static func slowTree(_ more: [String: TreeEntry]) throws -> TemporaryTree {
        try TemporaryTree(
            exchanges: more.merging([
                "big/GET/configuration.json": .text(#"{"body": ""# + String(repeating: "x", count: 16 << 20) + #""}"#)
            ]) { a, _ in a })
    }

    /// Launches `run` on a free port and connects as soon as the port takes connections (bounded);
    /// nil when the server ended or 10 s went by first.
    static func connectWhileStarting(_ tree: TemporaryTree) throws -> (ServerProcess, Int, HTTPConnection?) {
        let probe = try OccupiedPort()
        let port = probe.port
        probe.close()
        let server = try ServerProcess.launch(["run", "--port", String(port)], in: tree.url)
        let deadline = ContinuousClock.now + .seconds(10)
        while server.isRunning && ContinuousClock.now < deadline {
            if let connection = try? HTTPConnection(host: "127.0.0.1", port: port, timeout: 10) {
                return (server, port, connection)
            }
            usleep(1000)
        }
        return (server, port, nil)
    }

    @Test("a client that connects while the tree is still loading waits, and is answered once the server is ready")
    func clientConnectingDuringTheLoadIsAnswered() async throws {
        let tree = try Self.slowTree(["ping/GET/configuration.json": #"{"body": "pong"}"#])
        defer { tree.remove() }
        let (server, port, connection) = try Self.connectWhileStarting(tree)
        defer { server.stop() }
        let early = try #require(connection, "no connection accepted on port \(port)")
        #expect(server.standardOutput.isEmpty, "the connection was taken before the server said it was ready")
        try early.write(Array("GET /ping HTTP/1.1\r\nHost: test\r\n\r\n".utf8))
        let response = try early.readResponse(bodiless: false)
        #expect(response.statusCode == 200)
        #expect(response.text == "pong")
        try await server.waitForListening()
        #expect(server.port == port)
    }

    @Test("a client that connects while a tree with errors loads sees its connection closed, and the server exits 78")
    func clientConnectingDuringAFailedLoadIsClosed() async throws {
        let tree = try Self.slowTree(["broken/GET/configuration.json": #"{"status_code": 99}"#])
        defer { tree.remove() }
        let (server, port, connection) = try Self.connectWhileStarting(tree)
        let early = try #require(connection, "no connection accepted on port \(port) while the tree loaded")
        let outcome = await server.waitForExit()
        #expect(outcome.exitCode == 78)
        #expect(outcome.standardOutput.isEmpty)
        #expect(throws: (any Error).self, "the connection is reset or closed, never answered") {
            try early.write(Array("GET /broken HTTP/1.1\r\nHost: test\r\n\r\n".utf8))
            _ = try early.readResponse(bodiless: false)
        }
    }
}
