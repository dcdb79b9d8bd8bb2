import Foundation
import Testing

/// doc/server-configuration.md, doc/command-line.md IPv6: `::1` and `::` (which takes IPv4 too). Skipped where the machine has no `::1`.
@Suite("IPv6", .enabled(if: OccupiedPort.canListen(on: "::1"), "this machine has no IPv6 loopback"))
struct IPv6Tests {
    @Test("--hostname ::1: the listening line is http://[::1]:PORT and the server answers over IPv6")
    func loopbackIPv6() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/configuration.json": #"{"body": "pong6"}"#])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--hostname", "::1"])
        defer { server.stop() }
        #expect(server.listeningLine == "espressomartini listening on http://[::1]:\(server.port)")
        #expect(server.host == "::1")
        let response = try await server.client.get("/ping")
        #expect(response.statusCode == 200)
        #expect(response.text == "pong6")
    }

    @Test("hostname ::1 from the configuration file")
    func loopbackIPv6FromFile() async throws {
        let tree = try TemporaryTree(
            exchanges: ["ping/GET/configuration.json": #"{"body": "pong6"}"#], configuration: #"{"hostname": "::1"}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(server.listeningLine == "espressomartini listening on http://[::1]:\(server.port)")
        #expect(try await server.client.get("/ping").text == "pong6")
    }

    @Test("--hostname :: answers over IPv6 and over IPv4 127.0.0.1")
    func anyAddressTakesIPv4Too() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/configuration.json": #"{"body": "pong"}"#])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--hostname", "::"])
        defer { server.stop() }
        #expect(server.listeningLine == "espressomartini listening on http://[::]:\(server.port)")
        let six = try await HTTPClient(host: "::1", port: server.port).get("/ping")
        #expect(six.text == "pong")
        let four = try await HTTPClient(host: "127.0.0.1", port: server.port).get("/ping")
        #expect(four.text == "pong")
        let outcome = server.stop()
        #expect(outcome.exitCode == 0)
    }
}

extension IPv6Tests {
    @Test("an IPv6 port in use exits 69 naming [::1]:PORT")
    func ipv6PortInUse() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let occupied = try OccupiedPort(host: "::1")
        defer { occupied.close() }
        let outcome = try await ServerProcess.runToCompletion(
            ["run", "--hostname", "::1", "--port", String(occupied.port)], in: tree.url)
        #expect(outcome.exitCode == 69, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("[::1]:\(occupied.port)"), "\(outcome)")
    }
}
