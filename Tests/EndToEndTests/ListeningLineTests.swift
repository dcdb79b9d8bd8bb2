import Foundation
import Testing

@Suite("§8 run: the listening line")
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
        #expect(!server.standardError.contains("espressomartini listening"), "the listening line belongs on standard output only")
    }
}
