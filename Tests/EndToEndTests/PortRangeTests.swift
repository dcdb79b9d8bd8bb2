import Foundation
import Testing

/// doc/server-configuration.md, doc/command-line.md port ranges: the first free port of `"port": "A-B"` or `--port A-B`.
@Suite("port ranges")
struct PortRangeTests {
    static let exchanges: [String: TreeEntry] = ["ping/GET/configuration.json": #"{"body": "pong"}"#]

    @Test("two servers on one range get different ports, the first free ones, in order", arguments: [true, false])
    func twoServersOneRange(_ fromFile: Bool) async throws {
        let held = try #require(OccupiedPort.consecutive(3))
        let range = "\(held[0].port)-\(held[2].port)"
        held.forEach { $0.close() }
        let tree = try TemporaryTree(
            exchanges: Self.exchanges, configuration: fromFile ? #"{"port": "\#(range)"}"# : nil)
        defer { tree.remove() }
        let arguments = ["run"] + (fromFile ? [] : ["--port", range])
        let first = try await ServerProcess.start(arguments, in: tree.url)
        defer { first.stop() }
        let second = try await ServerProcess.start(arguments, in: tree.url)
        defer { second.stop() }
        #expect(first.port == held[0].port && second.port == held[1].port, "\(first.port), \(second.port)")
        #expect(try await first.client.get("/ping").text == "pong")
        #expect(try await second.client.get("/ping").text == "pong")
    }

    @Test("a range whose every port is taken exits 69 naming the range")
    func fullyBusyRange() async throws {
        let held = try #require(OccupiedPort.consecutive(3))
        defer { held.forEach { $0.close() } }
        let range = "\(held[0].port)-\(held[2].port)"
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["run", "--port", range], in: tree.url)
        #expect(outcome.exitCode == 69, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(
            outcome.standardError.contains("127.0.0.1 in the port range \(range): every port of it is in use"),
            "\(outcome)")
    }

    @Test(
        "a reversed or out-of-range port range in the configuration exits 78 with its position",
        arguments: [
            (
                #"{"port": "9000-8000"}"#,
                ":1:10: error: the port range '9000-8000' is reversed; give the lower port first, as in 8000-9000"
            ),
            (#"{"port": "0-10"}"#, ":1:10: error: the port range '0-10' is out of range; use ports from 1 to 65535"),
            (
                #"{"port": "8000-70000"}"#,
                ":1:10: error: the port range '8000-70000' is out of range; use ports from 1 to 65535"
            ),
        ])
    func badRangeInTheConfiguration(_ configuration: String, _ expected: String) async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: configuration)
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["run"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardError.contains("configuration.json" + expected), "\(outcome)")
    }

    @Test(
        "a reversed or out-of-range --port range exits 64",
        arguments: [
            (
                ["run", "--port", "9000-8000"],
                "--port 9000-8000 is reversed; give the lower port first, as in 8000-9000"
            ),
            (["run", "--port=0-10"], "--port 0-10 is out of range; use ports from 1 to 65535"),
            (["run", "--port", "80-x"], "The value '80-x' is invalid for '--port <n|a-b>'"),
        ])
    func badRangeFlag(_ arguments: [String], _ expected: String) async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(arguments, in: tree.url)
        #expect(outcome.exitCode == 64, "\(outcome)")
        #expect(outcome.standardError.contains(expected), "\(outcome)")
    }
}
