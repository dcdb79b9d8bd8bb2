@testable import EspressoMartiniServer
import EspressoMartini
import Testing

/// Forwarding in-process: the server's request handling, a lane on a test loop, and a fake upstream client
/// that the test plays the target for. What the target is sent, what the client is answered, the journal
/// and the access log, the client's body and the answer's in bounded memory, failures, a client that leaves.
@Suite struct InProcessForwardingTests {
    /// A server with a proxy to an address nothing is asked of, its tree answering `/hello`, and a lane on a
    /// test loop forwarding through the fake client.
    struct Fixture {
        let server: ServerFixture
        let loop = TestLoop()
        let client = FakeUpstreamClient()

        init(timeout: Double = ProxyConfiguration.defaultTimeout) throws {
            var configuration = ServerConfiguration()
            var proxy = ProxyConfiguration(target: try ProxyTarget.parse("http://127.0.0.1:9/v2").get())
            proxy.timeout = timeout
            configuration.proxy = proxy
            server = ServerFixture(
                [(.get, "/hello", [ConfiguredResponse(body: .inline(.string("hi")))])], configuration: configuration)
            let forwarder = try #require(server.server.forwarder)
            loop.lane = ForwardingLane(forwarder: forwarder, loop: loop, client: client)
        }

        /// A request in flight, as libmicrohttpd calls the handler for it.
        final class InFlight {
            let state: RequestState
            let connection: FakeConnection
            let method: String
            let path: String
            private let handler: HTTPServer

            init(_ fixture: Fixture, _ method: String, _ target: String, headers: [HTTPHeader]) {
                handler = fixture.server.server
                connection = FakeConnection(headers: headers, loop: fixture.loop)
                self.method = method
                path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
                state = handler.requestStarted(uri: target)
            }

            /// The headers, a piece of body, or (empty) the end or a resume.
            @discardableResult
            func receive(_ body: [UInt8] = []) -> Bool {
                method.withCString { method in
                    path.withCString { url in
                        body.withUnsafeBytes {
                            handler.receive(state, on: connection, url: url, method: method, body: $0)
                        }
                    }
                }
            }

            /// The request's end, as libmicrohttpd ends it: the handler is told, then the response sent is let go
            /// of (and with it the answer's body, which holds the connection).
            func complete() {
                handler.requestCompleted(state)
                connection.close()
            }
        }

        func request(_ method: String, _ target: String, headers: [HTTPHeader] = []) -> InFlight {
            let request = InFlight(self, method, target, headers: headers)
            #expect(request.receive(), "the headers are taken")
            return request
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(
        "a miss goes to the target with its head as written for it; the target's answer goes back, journaled and logged as forwarded"
    )
    func aMissIsForwardedAndAnswered() throws {
        let fixture = try Fixture()
        let request = fixture.request("GET", "/missing?x=1", headers: [HTTPHeader(name: "Accept", value: "text/plain")])
        #expect(request.receive(), "the end: the connection waits for the target's answer")
        #expect(request.connection.suspensions == 1 && request.connection.resumptions == 0)
        #expect(fixture.client.started.isEmpty, "the transfer starts once libmicrohttpd's callback has returned")
        fixture.loop.turn()
        let transfer = try #require(fixture.client.started.first)
        #expect(
            transfer.head.hasPrefix("GET /v2/missing?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nAccept: text/plain\r\n"),
            "\(transfer.head)")
        #expect(transfer.head.contains("X-Forwarded-For: 127.0.0.1\r\n") && transfer.head.hasSuffix("\r\n\r\n"))

        fixture.client.answer(
            transfer, with: Self.bytes("HTTP/1.1 201 Created\r\nContent-Length: 5\r\nX-Target: yes\r\n\r\nmade!"))
        fixture.loop.turn()
        #expect(request.connection.resumptions == 1, "the answer is whole: the client's connection resumes")
        #expect(request.receive())
        #expect(request.connection.queued.map(\.status) == [201])
        let headers = try #require(request.connection.queued.first?.response.headers)
        #expect(headers.contains(HTTPHeader(name: "X-Target", value: "yes")))
        request.complete()
        #expect(fixture.server.journal.entries.map(\.status) == [201])
        #expect(fixture.server.accessLog.all.map(\.forwarded) == [true])
        #expect(
            fixture.client.removed.map { ObjectIdentifier($0) } == [ObjectIdentifier(transfer)],
            "the ended transfer is taken out of the client")

        let hit = fixture.server.request("GET", "/hello").0
        #expect(hit.queued.map(\.status) == [200], "the tree still answers what it has")
    }

    @Test(
        "the client's body streams to the target as it comes; past 1 MiB waiting, the client's connection waits for the target"
    )
    func theBodyStreamsInBoundedMemory() throws {
        let fixture = try Fixture()
        let megabyte = [UInt8](repeating: 0x61, count: ForwardedExchange.highWater)
        let request = fixture.request(
            "PUT", "/upload", headers: [HTTPHeader(name: "Content-Length", value: "\(megabyte.count + 3)")])
        fixture.loop.turn()
        let transfer = try #require(fixture.client.started.first, "a miss is forwarded at its headers")
        #expect(transfer.request.body == .length(megabyte.count + 3))
        #expect(request.receive(megabyte))
        #expect(request.connection.suspensions == 1, "1 MiB waits for the target: the client's connection is suspended")
        let first = fixture.client.takeUpload(transfer)
        #expect(first.bytes.count == megabyte.count && !first.ended)
        #expect(request.connection.resumptions == 1, "taken down to 256 KiB: the client's connection resumes")
        #expect(request.receive(Self.bytes("end")))
        #expect(request.receive(), "the body's end")
        fixture.loop.turn()
        #expect(transfer.unpauses >= 1, "the waiting upload moves again")
        let rest = fixture.client.takeUpload(transfer)
        #expect(rest.bytes == Self.bytes("end") && rest.ended)
        fixture.client.answer(transfer, with: Self.bytes("HTTP/1.1 204 No Content\r\n\r\n"))
        fixture.loop.turn()
        #expect(request.receive())
        #expect(request.connection.queued.map(\.status) == [204])
        request.complete()
        #expect(fixture.server.journal.entries.first?.bodySize == megabyte.count + 3)
    }

    @Test("an answer larger than 1 MiB goes through: the transfer stops receiving until the client has read enough")
    func theAnswerStreamsInBoundedMemory() throws {
        let fixture = try Fixture()
        let request = fixture.request("GET", "/big")
        #expect(request.receive())
        fixture.loop.turn()
        let transfer = try #require(fixture.client.started.first)
        let size = 3 * ForwardedExchange.highWater
        var left = fixture.client.answer(
            transfer,
            with: Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n")
                + [UInt8](repeating: 0x62, count: size))
        #expect(!left.isEmpty, "past 1 MiB waiting for the client, the rest is refused for now")
        fixture.loop.turn()
        #expect(request.receive(), "the head goes once the client has read what it could")
        let response = try #require(request.connection.queued.first)
        #expect(response.status == 200)
        let exchange = try #require(request.state.bodySink as? ForwardedExchange)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        var read = 0
        while read < size {
            switch exchange.read(at: UInt64(read), into: buffer) {
            case .bytes(let count): read += count
            case .suspended:
                fixture.loop.turn()
                #expect(transfer.unpauses > 0, "the client took enough: the transfer receives again")
                left = fixture.client.answer(transfer, with: left)
                fixture.loop.turn()
            default: Issue.record("the answer ended early at \(read) bytes")
            }
            if read >= size || request.connection.queued.isEmpty { break }
        }
        #expect(read == size)
        request.complete()
    }

    @Test("a target that fails is a 502 saying why; one that says nothing within the timeout a 504")
    func failures() throws {
        let fixture = try Fixture(timeout: 0.2)
        let refused = fixture.request("GET", "/refused")
        #expect(refused.receive())
        fixture.loop.turn()
        let first = try #require(fixture.client.started.first)
        fixture.client.fail(first, "Failed to connect to 127.0.0.1 port 9: Connection refused")
        fixture.loop.turn()
        #expect(refused.receive())
        #expect(refused.connection.queued.map(\.status) == [502])
        refused.complete()

        let silent = fixture.request("GET", "/silent")
        #expect(silent.receive())
        #expect(
            fixture.loop.turn(until: { silent.connection.resumptions == 1 }, timeout: 10),
            "overdue: the client's connection resumes")
        #expect(silent.receive())
        #expect(silent.connection.queued.map(\.status) == [504])
        silent.complete()
        #expect(fixture.server.journal.entries.map(\.status) == [502, 504])
    }

    @Test("a client that leaves before the answer stops its transfer")
    func aClientThatLeavesStopsItsTransfer() throws {
        let fixture = try Fixture()
        let request = fixture.request("GET", "/slow")
        #expect(request.receive())
        fixture.loop.turn()
        let transfer = try #require(fixture.client.started.first)
        request.complete()
        fixture.loop.turn()
        #expect(fixture.client.removed.map { ObjectIdentifier($0) } == [ObjectIdentifier(transfer)])
    }
}
