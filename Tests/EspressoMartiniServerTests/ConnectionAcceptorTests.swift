@testable import EspressoMartiniServer
import EspressoMartini
import EspressoMartiniDaemon
import Glibc
import Testing

/// The acceptor with real libmicrohttpd daemons on a real socket, answering through the server's handler.
@Suite("connection acceptor")
struct ConnectionAcceptorTests {
    /// A client connection to 127.0.0.1:`port`, closed when it goes.
    final class Client {
        let descriptor: Int32

        init(port: Int) throws {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(connected == 0)
            let request = Array("GET /ping HTTP/1.1\r\nHost: test\r\n\r\n".utf8)
            try #require(send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count)
        }

        /// Whether an answer arrives within `milliseconds`.
        func answered(within milliseconds: Int32) -> Bool {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, milliseconds) == 1 else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            return count > 0 && buffer.starts(with: Array("HTTP/1.1 200".utf8))
        }

        deinit { close(descriptor) }
    }

    /// A server's handler behind `threads` daemons and an acceptor holding at most `limit` connections.
    final class Served {
        let fixture = ServerFixture([(.get, "/ping", [ConfiguredResponse(body: .inline(.string("pong")))])])
        let acceptor: ConnectionAcceptor
        let daemons: [HTTPDaemon]
        let port: Int

        init(threads: Int, limit: Int) throws {
            let socket = try ListenSocket(hostname: "127.0.0.1", port: 0)
            port = Int(socket.address.split(separator: ":").last!)!
            acceptor = ConnectionAcceptor(listener: socket.descriptor, limit: limit)
            daemons = try (0..<threads).map { [fixture, acceptor] _ in
                try #require(HTTPDaemon(connectionTimeout: 30, connectionLimit: limit, handler: fixture.server, acceptor: acceptor, tlsCertificateCallback: nil))
            }
            acceptor.start(handingTo: daemons)
        }

        func stop() {
            acceptor.stop()
            daemons.forEach { $0.stop() }
        }
    }

    /// Polls `condition` every 10 ms for at most 2 s.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test("20 connections opened at once are shared 10 and 10 by two daemons, and each one's close is counted")
    func connectionsSpreadEvenly() async throws {
        let served = try Served(threads: 2, limit: 100)
        defer { served.stop() }
        var clients = try (0..<20).map { _ in try Client(port: served.port) }
        for client in clients { #expect(client.answered(within: 2000)) }
        #expect(served.daemons.map(\.openConnections) == [10, 10])
        clients.removeAll()
        #expect(try await eventually { served.daemons.map(\.openConnections) == [0, 0] })
    }

    @Test("with the limit (3) reached, a fourth connection waits unanswered until one of the three closes, then is served")
    func limitHoldsTheNextConnection() async throws {
        let served = try Served(threads: 1, limit: 3)  // one daemon: the tightest case
        defer { served.stop() }
        var first = try (0..<3).map { _ in try Client(port: served.port) }
        for client in first { #expect(client.answered(within: 2000)) }
        let fourth = try Client(port: served.port)
        #expect(!fourth.answered(within: 300))
        #expect(served.daemons.map(\.openConnections).reduce(0, +) == 3)
        first.removeFirst()
        #expect(fourth.answered(within: 2000))
    }

    @Test("stop returns while the acceptor waits for a connection, and while it waits at the limit")
    func stopEndsEveryWait() throws {
        try Served(threads: 1, limit: 10).stop()
        let served = try Served(threads: 1, limit: 1)
        let client = try Client(port: served.port)
        #expect(client.answered(within: 2000))
        served.stop()
    }
}
