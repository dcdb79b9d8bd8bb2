import Foundation
import Glibc
import Testing

/// doc/service.md: readiness notified to systemd. The server sends its state to `NOTIFY_SOCKET` as systemd's
/// `sd_notify` does: a path or an abstract (`@name`) socket, one datagram per state.
@Suite("service notifications")
struct ServiceNotificationTests {
    @Test(
        "READY=1 once the port answers, RELOADING=1 then READY=1 on a reload, STOPPING=1 on SIGTERM",
        arguments: [false, true])
    func notifications(abstract: Bool) async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let notifications = try NotifySocket(abstract: abstract)
        defer { notifications.close() }
        let server = try await ServerProcess.start(
            ["run", "--port", "0"], in: tree.url, environment: notifications.environment)
        defer { server.stop() }

        let ready = try #require(try await notifications.waitFor("READY=1"), "no READY=1 at \(notifications.address)")
        #expect(ready.contains("STATUS=serving 1 exchanges on 127.0.0.1:\(server.port)"), "\(ready)")
        #expect(try await server.client.get("/ping").statusCode == 200)

        #expect(try await server.client.send("POST", "/__espressomartini/reload").statusCode == 200)
        #expect(try await notifications.waitFor("RELOADING=1") != nil)
        #expect(try await notifications.waitFor("READY=1") != nil)

        server.send(signal: SIGTERM)
        #expect(try await notifications.waitFor("STOPPING=1") != nil)
        #expect(server.stop().exitCode == 0)
    }

    /// Runs `body` once a server on a watched tree of 400 folders has sent READY=1. Setting up the
    /// watches keeps it busy right then, which is when a signal without a handler would take its
    /// default action, or one taken by the wrong thread would be lost.
    private func atBusyReadiness(_ body: (ServerProcess, NotifySocket) async throws -> Void) async throws {
        var exchanges: [String: TreeEntry] = [:]
        for index in 0..<400 { exchanges["folder\(index)/GET/"] = .folder }
        let tree = try TemporaryTree(exchanges: exchanges)
        defer { tree.remove() }
        let notifications = try NotifySocket(abstract: true)
        defer { notifications.close() }
        let server = try ServerProcess.launch(
            ["run", "--port", "0"], in: tree.url, environment: notifications.environment)
        defer { server.stop() }
        try #require(try await notifications.waitFor("READY=1") != nil)
        try await body(server, notifications)
    }

    @Test("a SIGHUP sent the moment READY=1 arrives reloads, and does not kill the server")
    func hangUpAtReadiness() async throws {
        try await atBusyReadiness { server, notifications in
            server.send(signal: SIGHUP)
            #expect(try await notifications.waitFor("RELOADING=1") != nil)
            try await server.waitForListening()
            #expect(try await server.client.get("/folder7").statusCode == 200)
            #expect(server.isRunning)
        }
    }

    @Test(
        "a SIGTERM sent the moment READY=1 arrives stops the server with exit 0, and no thread of it can take the signal from its handler"
    )
    func terminateAtReadiness() async throws {
        try await atBusyReadiness { server, _ in
            // A thread that does not block the signals could take one meant for the main thread's
            // `sigwait` (which unblocks them in the main thread while it waits, so that one is not checked).
            for thread in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.pid)/task")
            where thread != "\(server.pid)" {
                let status = try String(contentsOfFile: "/proc/\(server.pid)/task/\(thread)/status", encoding: .utf8)
                let blocked = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") }).split(
                    separator: "\t"
                ).last
                let mask = try #require(blocked.flatMap { UInt64($0, radix: 16) })
                for number in [SIGINT, SIGTERM, SIGHUP] {
                    #expect(mask & (1 << UInt64(number - 1)) != 0, "thread \(thread) does not block signal \(number)")
                }
            }
            server.send(signal: SIGTERM)
            let outcome = await server.waitForExit()
            #expect(outcome.exitCode == 0, "\(outcome)")
        }
    }

    @Test(
        "without NOTIFY_SOCKET, or with an address that is not a socket, the server runs as usual",
        arguments: ["", "/nonexistent/notify.sock", "@", "vsock:2:1234"])
    func noSocket(address: String) async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let server = try await ServerProcess.start(
            ["run", "--port", "0"], in: tree.url, environment: ["NOTIFY_SOCKET": address])
        defer { server.stop() }
        #expect(try await server.client.get("/ping").statusCode == 200)
        #expect(server.stop().exitCode == 0)
    }
}
