import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// Clients that connect and then send slowly, or nothing at all; `connection_timeout` and
    /// `connection_limit` from the server configuration.
    @Suite("slow and idle clients")
    struct SlowClientTests {
        static let exchanges: [String: TreeEntry] = ["ping/GET/configuration.json": #"{"body": "pong"}"#]

        static func tree(_ configuration: String) throws -> TemporaryTree {
            try TemporaryTree(exchanges: exchanges, configuration: configuration)
        }

        @Test(
            "400 connections stuck halfway through their request line do not hold up another client, and cost nothing once gone"
        )
        func stuckConnectionsDoNotBlock() async throws {
            DescriptorLimit.raise(to: 8192)
            let tree = try Self.tree(#"{"watch": false}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (pid, port, client) = (server.pid, server.port, server.client)
            let baseline = try #require(ProcessStatus.openSockets(pid))

            let (accepted, answer, stillOpen, afterwards) = try await BlockingCall.run {
                let stuck = try (0..<400).map { _ in
                    let connection = try RawConnection(port: port)
                    connection.send("GET /pi")
                    return connection
                }
                let accepted = ProcessStatus.wait(
                    timeout: .seconds(10), { ProcessStatus.openSockets(pid) }, until: { $0 >= baseline + 400 })
                let answer = client.timedBlocking("GET", "/ping")
                let stillOpen = stuck.filter { !$0.drain() }.count
                stuck.forEach { $0.close() }
                let afterwards = ProcessStatus.wait(
                    timeout: .seconds(10), { ProcessStatus.openSockets(pid) }, until: { $0 <= baseline })
                return (accepted, answer, stillOpen, afterwards)
            }
            #expect(
                (accepted ?? 0) >= baseline + 400,
                "the server holds \(accepted ?? -1) sockets, expected \(baseline) + 400")
            #expect(try answer.get().text == "pong")
            #expect(answer.elapsed < .seconds(1), "the request waited \(answer.elapsed) behind 400 stuck connections")
            #expect(
                stillOpen == 400, "\(400 - stillOpen) stuck connections were closed before connection_timeout (30 s)")
            #expect(
                afterwards == baseline, "\(afterwards ?? -1) sockets open after the clients left, \(baseline) before")
            #expect(server.stop().exitCode == 0)
        }

        @Test(
            "with connection_timeout 2, idle connections and half-sent requests are closed by the server after about 2 s"
        )
        func idleConnectionsTimeOut() async throws {
            DescriptorLimit.raise(to: 8192)
            let tree = try Self.tree(#"{"watch": false, "connection_timeout": 2}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (pid, port) = (server.pid, server.port)
            let baseline = try #require(ProcessStatus.openSockets(pid))

            let (closedAfter, keptAlive) = try await BlockingCall.run {
                // 400 half request lines, 20 connections that never send a byte, one kept alive after its answer.
                var connections = try (0..<400).map { _ in
                    let connection = try RawConnection(port: port)
                    connection.send("GET /pi")
                    return connection
                }
                connections += try (0..<20).map { _ in try RawConnection(port: port) }
                let keptAlive = try RawConnection(port: port)
                keptAlive.send("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                connections.append(keptAlive)
                defer { connections.forEach { $0.close() } }
                return (RawConnection.waitUntilClosed(connections, timeout: .seconds(10)), keptAlive.received)
            }
            let open = closedAfter.filter { $0 == nil }.count
            #expect(open == 0, "\(open) of \(closedAfter.count) idle connections still open after 10 s")
            let times = closedAfter.compactMap { $0 }
            if let first = times.min(), let last = times.max() {
                #expect(first >= .milliseconds(1500), "a connection was closed after \(first), before its 2 s")
                #expect(last < .seconds(6), "the last idle connection was closed after \(last)")
            }
            #expect(
                keptAlive.starts(with: Array("HTTP/1.1 200".utf8)),
                "the kept-alive connection got \(String(decoding: keptAlive.prefix(40), as: UTF8.self))")
            #expect(try await server.client.get("/ping").text == "pong")
            let afterwards = ProcessStatus.wait(
                timeout: .seconds(5), { ProcessStatus.openSockets(pid) }, until: { $0 <= baseline })
            #expect(afterwards == baseline)
            #expect(server.stop().exitCode == 0)
        }

        /// `connection_timeout` counts idle time only (libmicrohttpd's timeout): a client that sends one byte
        /// now and then keeps its own connection, and `connection_limit` bounds how many such clients there
        /// can be. What must hold is that it holds nothing else up.
        @Test("a request trickled one byte every 0.3 s holds only its own connection: others are answered at once")
        func trickledRequestHoldsOnlyItsConnection() async throws {
            let tree = try Self.tree(#"{"watch": false, "connection_timeout": 2}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (port, client) = (server.port, server.client)
            let slowest = try await BlockingCall.run { () -> Duration in
                let connection = try RawConnection(port: port)
                defer { connection.close() }
                var slowest = Duration.zero
                for byte in Array("GET /ping HTTP/1.1\r\nHost: x".utf8) {
                    guard connection.send([byte]) else { break }
                    let started = ContinuousClock.now
                    _ = try client.sendBlocking("GET", "/ping")
                    slowest = max(slowest, ContinuousClock.now - started)
                    usleep(300_000)
                }
                return slowest
            }
            #expect(slowest < .seconds(1), "a request beside the trickling one took \(slowest)")
            #expect(try await server.client.get("/ping").text == "pong")
        }

        @Test(
            "beyond connection_limit (50) the server takes no more connections; those it holds still work; afterwards it serves the queued ones and new ones"
        )
        func connectionLimit() async throws {
            let tree = try Self.tree(#"{"watch": false, "connection_limit": 50}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (pid, port) = (server.pid, server.port)
            let baseline = try #require(ProcessStatus.openSockets(pid))
            let complete = "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

            let result = try await BlockingCall.run {
                // 50 connections fill the limit, each with a request still missing its last line.
                let holders = try (0..<50).map { _ in
                    let connection = try RawConnection(port: port)
                    connection.send("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    return connection
                }
                defer { holders.forEach { $0.close() } }
                let full = ProcessStatus.wait(
                    timeout: .seconds(10), { ProcessStatus.openSockets(pid) }, until: { $0 >= baseline + 50 })
                // 20 more send complete requests: the kernel completes their handshake, the server does not take them.
                let extra = try (0..<20).map { _ in
                    let connection = try RawConnection(port: port)
                    connection.send(complete)
                    return connection
                }
                defer { extra.forEach { $0.close() } }
                usleep(1_000_000)
                let whileFull = ProcessStatus.openSockets(pid)
                let extraAnswered = extra.filter {
                    _ = $0.drain(); return !$0.received.isEmpty
                }.count
                // The connections inside the limit finish their requests and are answered.
                holders.forEach { $0.send("Connection: close\r\n\r\n") }
                let holdersClosed = RawConnection.waitUntilClosed(holders, timeout: .seconds(10))
                let holdersAnswered = holders.filter { $0.received.starts(with: Array("HTTP/1.1 200".utf8)) }.count
                // Then the queued ones get their turn.
                let extraClosed = RawConnection.waitUntilClosed(extra, timeout: .seconds(10))
                let extraServed = extra.filter { $0.received.starts(with: Array("HTTP/1.1 200".utf8)) }.count
                return (
                    full, whileFull, extraAnswered, holdersClosed.filter { $0 != nil }.count, holdersAnswered,
                    extraClosed.filter { $0 != nil }.count, extraServed
                )
            }
            let (full, whileFull, extraAnswered, holdersClosed, holdersAnswered, extraClosed, extraServed) = result
            #expect(full == baseline + 50, "the server holds \(full ?? -1) sockets with 50 clients, \(baseline) idle")
            #expect(
                (whileFull ?? .max) <= baseline + 50,
                "the server took \((whileFull ?? 0) - baseline) connections with a limit of 50")
            #expect(
                extraAnswered == 0, "\(extraAnswered) connections beyond the limit were answered while it was reached")
            #expect(
                holdersClosed == 50 && holdersAnswered == 50,
                "\(holdersAnswered) of the 50 connections inside the limit were answered")
            #expect(
                extraClosed == 20 && extraServed == 20,
                "\(extraServed) of the 20 queued connections were answered once the others left")
            #expect(try await server.client.get("/ping").text == "pong")
            let afterwards = ProcessStatus.wait(
                timeout: .seconds(5), { ProcessStatus.openSockets(pid) }, until: { $0 <= baseline })
            #expect(afterwards == baseline)
            #expect(server.stop().exitCode == 0)
        }
    }
}
