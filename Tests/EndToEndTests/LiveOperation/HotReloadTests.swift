import Foundation
import Glibc
import Testing

/// doc/reloading.md: changes under the requests folder are served within a second; broken edits never take the mock down.
@Suite("hot reload")
struct HotReloadTests {
    /// Polls `path` until its body is `expected` (bounded); returns the seconds it took, nil if never.
    /// Polls on a thread of its own, so the measure is not skewed by a busy task pool.
    static func secondsUntil(
        _ server: ServerProcess, _ path: String, serves expected: String, status: Int = 200, timeout: Double = 10
    ) async throws -> Double? {
        let client = server.client
        return try await BlockingCall.run {
            let started = ContinuousClock.now
            while ContinuousClock.now - started < .milliseconds(Int(timeout * 1000)) {
                let response = try client.sendBlocking("GET", path)
                if response.statusCode == status && response.text == expected {
                    let elapsed = ContinuousClock.now - started
                    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                }
                usleep(20_000)
            }
            return nil
        }
    }

    static let seed: [String: TreeEntry] = [
        "greeting/GET/configuration.json": #"{"response_file": "greeting.txt"}"#,
        "greeting/GET/greeting.txt": "hello",
        "old/GET/configuration.json": #"{"body": "old"}"#,
    ]

    @Test("editing a response file is served within a second")
    func editResponseFile() async throws {
        let tree = try TemporaryTree(exchanges: Self.seed)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        #expect(try await server.client.get("/greeting").text == "hello")
        try tree.write("bonjour", at: "network-exchanges/greeting/GET/greeting.txt")
        let seconds = try await Self.secondsUntil(server, "/greeting", serves: "bonjour")
        #expect(seconds != nil && seconds! < 1.0, "took \(String(describing: seconds)) s")
    }

    @Test("a new folder, nested sub-folders included, is served; a removed one is gone")
    func addAndRemoveFolders() async throws {
        let tree = try TemporaryTree(exchanges: Self.seed)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        try tree.write(.folder, at: "network-exchanges/deep/er")
        try await Task.sleep(for: .milliseconds(50))  // a folder first, then content inside it: both must be seen
        try tree.write(#"{"body": "deep"}"#, at: "network-exchanges/deep/er/still/GET/configuration.json")
        #expect(try await Self.secondsUntil(server, "/deep/er/still", serves: "deep") != nil)

        try FileManager.default.removeItem(at: tree.url.appendingPathComponent("network-exchanges/old"))
        #expect(
            try await Self.secondsUntil(
                server, "/old", serves: #"{"error":"no exchange for GET /old","closest":[]}"#, status: 404) != nil)
    }

    @Test("a broken configuration keeps the last good tree serving and logs the error; the fix is served")
    func breakAndFix() async throws {
        let tree = try TemporaryTree(exchanges: Self.seed)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        try tree.write("{\"body\": \"new\",\n  \"delay\": -1}", at: "network-exchanges/old/GET/configuration.json")
        let logged = await server.waitForStandardErrorLine {
            $0.contains("old/GET/configuration.json:2:12: error: 'delay' must not be negative")
        }
        #expect(logged != nil, "stderr: \(server.standardError)")
        #expect(try await server.client.get("/old").text == "old")
        #expect(try await server.client.get("/greeting").text == "hello")

        try tree.write(#"{"body": "fixed"}"#, at: "network-exchanges/old/GET/configuration.json")
        #expect(try await Self.secondsUntil(server, "/old", serves: "fixed") != nil)
    }

    @Test("with watch off, changes wait for SIGHUP")
    func sighup() async throws {
        let tree = try TemporaryTree(exchanges: Self.seed, configuration: #"{"watch": false}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        try tree.write(#"{"body": "changed"}"#, at: "network-exchanges/old/GET/configuration.json")
        try await Task.sleep(for: .milliseconds(1200))
        #expect(try await server.client.get("/old").text == "old")
        server.send(signal: SIGHUP)
        #expect(try await Self.secondsUntil(server, "/old", serves: "changed") != nil)
        #expect(server.isRunning)
    }

    @Test("call counters survive a reload for exchanges that still exist")
    func countersSurviveReload() async throws {
        let tree = try TemporaryTree(
            exchanges: [
                "job/GET/configuration.json":
                    #"[{"status_code": 202, "body": "1"}, {"status_code": 202, "body": "2"}, {"body": "3"}]"#
            ],
            configuration: #"{"watch": false}"#
        )
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        #expect(try await server.client.get("/job").text == "1")
        try tree.write(#"{"body": "other"}"#, at: "network-exchanges/other/GET/configuration.json")
        #expect(try await server.client.send("POST", "/__espressomartini/reload").statusCode == 200)
        #expect(try await server.client.get("/job").text == "2")
        #expect(try await server.client.get("/job").text == "3")
    }

    @Test("a request in flight finishes on the tree it started with")
    func inFlightRequestKeepsItsTree() async throws {
        let tree = try TemporaryTree(
            exchanges: ["slow/GET/configuration.json": #"{"body": "slow answer", "delay": 1}"#],
            configuration: #"{"watch": false}"#
        )
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        async let slow = server.client.get("/slow")
        try await Task.sleep(for: .milliseconds(300))
        try FileManager.default.removeItem(at: tree.url.appendingPathComponent("network-exchanges/slow"))
        try tree.write(.folder, at: "network-exchanges/elsewhere/GET")
        #expect(try await server.client.send("POST", "/__espressomartini/reload").statusCode == 200)
        #expect(try await server.client.get("/slow").statusCode == 404)
        let answer = try await slow
        #expect(answer.statusCode == 200)
        #expect(answer.text == "slow answer")
    }
}
