import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// What RobustnessTests does not cover: the status of oversized and badly framed requests, a few
    /// hundred connections of seeded random bytes, and half-closed connections. After each, the server
    /// still answers, and at the end it stops with exit 0.
    @Suite("malformed requests")
    struct MalformedRequestTests {
        static let exchanges: [String: TreeEntry] = [
            "ping/GET/configuration.json": #"{"body": "pong"}"#,
            "upload/POST/configuration.json": #"{"status_code": 201, "body": "stored"}"#,
            "slow/GET/configuration.json": #"{"delay": 0.3, "body": "slow"}"#,
        ]

        /// With `connection_timeout` 2: libmicrohttpd does not notice a client that hangs up (or half-closes)
        /// in the middle of sending its request, and keeps such a connection until the timeout.
        static func serve() async throws -> (TemporaryTree, ServerProcess) {
            let tree = try TemporaryTree(
                exchanges: exchanges, configuration: #"{"watch": false, "connection_timeout": 2}"#)
            do {
                return (tree, try await ServerProcess.serving(tree))
            } catch {
                tree.remove()
                throw error
            }
        }

        /// The status of the first response the server sends to `request`, on a connection of its own.
        static func status(of request: String, client: HTTPClient) async throws -> Int? {
            try await response(to: request, client: client)?.statusCode
        }

        /// The first response the server sends to `request`, on a connection of its own.
        static func response(to request: String, client: HTTPClient) async throws -> HTTPResponse? {
            let raw = try await client.sendRaw(Array(request.utf8))
            return try? HTTPResponse(raw: raw)
        }

        /// Whether `response` is the server's JSON error (not libmicrohttpd's HTML page) saying `words`.
        static func isJSONError(_ response: HTTPResponse?, saying words: String) -> Bool {
            guard let response, response.header("Content-Type") == "application/json",
                let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                let error = object["error"] as? String
            else { return false }
            return error.contains(words)
        }

        @Test(
            "an oversized request line is 414, oversized headers 431 (one huge or thousands), and the server carries on"
        )
        func oversized() async throws {
            let (tree, server) = try await Self.serve()
            defer { tree.remove() }
            defer { server.stop() }
            let client = server.client
            let longPath = "/" + String(repeating: "a", count: 100_000)
            let tooLong = try await Self.response(to: "GET \(longPath) HTTP/1.1\r\nHost: x\r\n\r\n", client: client)
            #expect(tooLong?.statusCode == 414)
            #expect(
                Self.isJSONError(tooLong, saying: "the request line does not fit in the 16 KiB"),
                "\(String(describing: tooLong))")
            let tooLarge = try await Self.response(
                to: "GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n",
                client: client)
            #expect(tooLarge?.statusCode == 431)
            #expect(
                Self.isJSONError(tooLarge, saying: "headers do not fit in the 16 KiB"),
                "\(String(describing: tooLarge))")
            // The 16 KiB each connection has (doc/limits.md): 12 000 bytes of headers fit, 20 000 do not.
            #expect(
                try await Self.status(
                    of:
                        "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: \(String(repeating: "b", count: 12_000))\r\n\r\n",
                    client: client) == 200)
            #expect(
                try await Self.status(
                    of: "GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n",
                    client: client) == 431)
            let many = (0..<3000).map { "X-Header-\($0): value\r\n" }.joined()
            #expect(try await Self.status(of: "GET /ping HTTP/1.1\r\nHost: x\r\n\(many)\r\n", client: client) == 431)
            #expect(try await client.get("/ping").text == "pong")
            #expect(server.stop().exitCode == 0)
        }

        /// (libmicrohttpd 0.9.75 sends its status line and headers twice for a bad Content-Length: the
        /// status read from the first is right, which is all a client needs before the connection closes.)
        @Test("what libmicrohttpd refuses before a route is chosen is journaled and in the access log")
        func journaledAndLogged() async throws {
            let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree, ["--log-level", "INFO"])
            defer { server.stop() }
            let client = server.client
            let longPath = "/" + String(repeating: "a", count: 20_000)
            #expect(try await Self.status(of: "GET \(longPath) HTTP/1.1\r\nHost: x\r\n\r\n", client: client) == 414)
            #expect(
                try await Self.status(
                    of:
                        "GET /ping HTTP/1.1\r\nHost: x\r\nX-Seen: yes\r\nX-Last: 1\r\nX-Big: \(String(repeating: "b", count: 20_000))\r\n\r\n",
                    client: client) == 431)
            let journal = try await client.get("/__espressomartini/requests?status=4xx")
            let entries = try JSONSerialization.jsonObject(with: Data(journal.body)) as? [[String: Any]] ?? []
            #expect(entries.map { $0["status"] as? Int } == [414, 431], "\(journal.text)")
            #expect(entries.allSatisfy { $0["method"] is NSNull && $0["path"] is NSNull && $0["route"] is NSNull })
            let headers = entries.last?["headers"] as? [String: String]
            #expect(
                headers?["X-Seen"] == "yes", "the headers before the last before the one too large: \(journal.text)")
            let logged = await server.waitForStandardErrorLine(timeout: 5) { $0.hasSuffix("INFO - - 431 - 0.00ms") }
            #expect(logged != nil, "\(server.standardError)")
            #expect(server.standardError.contains("INFO - - 414 - 0.00ms"), "\(server.standardError)")
        }

        @Test(
            "every request at the edge of a connection's memory gets an answer: thousands of query parameters, URLs and headers of 14 000 to 16 600 bytes; each error journaled and logged"
        )
        func answeredAtTheEdge() async throws {
            let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree, ["--log-level", "INFO"])
            defer { server.stop() }
            let client = server.client
            // Query parameters are read by the server, never stored by libmicrohttpd: 2000 of them are served.
            for count in [230, 240, 500, 2000] {
                let query = (0..<count).map { "p\($0)=1" }.joined(separator: "&")
                let answer = try await client.get("/ping?\(query)")
                #expect(answer.statusCode == 200 && answer.text == "pong", "\(count) parameters: \(answer.statusCode)")
            }
            var refused = 0
            for size in stride(from: 14_000, through: 16_600, by: 50) {
                for request in [
                    "GET /ping?x=\(String(repeating: "a", count: size)) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                    "GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: \(String(repeating: "b", count: size))\r\n\r\n",
                ] {
                    let answer = try await Self.response(to: request, client: client)
                    let status = answer?.statusCode
                    #expect(status == 200 || status == 414 || status == 431, "\(size) bytes: no answer")
                    if status != 200 {
                        refused += 1
                        #expect(
                            Self.isJSONError(answer, saying: "16 KiB"), "\(size) bytes: \(String(describing: answer))")
                    }
                }
            }
            #expect(refused > 0 && refused < 106, "\(refused) of 106 refused")
            let journal = try await client.get("/__espressomartini/requests?status=4xx")
            let entries = try JSONSerialization.jsonObject(with: Data(journal.body)) as? [[String: Any]] ?? []
            #expect(entries.count == refused, "\(entries.count) journaled of \(refused) refused")
            let logged = await server.waitForStandardErrorLine(timeout: 5) { _ in
                server.standardError.split(separator: "\n").filter {
                    $0.hasSuffix(" 414 - 0.00ms") || $0.hasSuffix(" 431 - 0.00ms")
                }.count == refused
            }
            #expect(logged != nil, "\(server.standardError.suffix(2000))")
            #expect(try await client.get("/ping").text == "pong")
        }

        @Test(
            "bad framing is 400: negative or non-numeric Content-Length, bad chunk sizes, chunks longer than announced; an overflowing Content-Length or chunk size is 413"
        )
        func badFraming() async throws {
            let (tree, server) = try await Self.serve()
            defer { tree.remove() }
            defer { server.stop() }
            let client = server.client
            let head = "POST /upload HTTP/1.1\r\nHost: x\r\n"
            // The JSON error's words; nil for the answers libmicrohttpd 0.9.75 sends its head twice for, which
            // have no body (doc/limits.md).
            let cases: [(String, Int, String?)] = [
                (head + "Content-Length: -5\r\n\r\nabc", 400, nil),
                (head + "Content-Length: abc\r\n\r\nabc", 400, nil),
                (head + "Content-Length: 99999999999999999999999\r\n\r\n", 413, nil),
                (head + "Transfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n", 400, "chunked body is malformed"),
                (head + "Transfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n", 400, "chunked body is malformed"),
                (
                    head + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello, too long\r\n0\r\n\r\n", 400,
                    "chunked body is malformed"
                ),
                (
                    head + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\nhello\r\n0\r\n\r\n", 413,
                    "beyond 64 bits"
                ),
                ("GET /ping HTTP/2.0\r\nHost: x\r\n\r\n", 505, "send HTTP/1.1 or HTTP/1.0"),
                ("GET /ping\r\nHost: x\r\n\r\n", 400, "the request line or a header line is malformed"),
                ("GET /ping HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n", 400, "malformed"),
            ]
            for (request, expected, words) in cases {
                let response = try await Self.response(to: request, client: client)
                #expect(
                    response?.statusCode == expected,
                    "\(request.debugDescription) got \(response.map { String($0.statusCode) } ?? "no answer")")
                if let words {
                    #expect(
                        Self.isJSONError(response, saying: words),
                        "\(request.debugDescription): \(String(describing: response))")
                } else {
                    #expect(
                        response?.header("Content-Length") == "0",
                        "\(request.debugDescription): \(String(describing: response))")
                }
                #expect(server.isRunning)
            }
            #expect(try await client.send("POST", "/upload", body: Array("fine".utf8)).statusCode == 201)
            #expect(server.stop().exitCode == 0)
        }

        @Test(
            "300 connections of seeded random bytes, some after a valid start, some half-closed: the server survives, closes them all and still answers"
        )
        func randomBytes() async throws {
            let (tree, server) = try await Self.serve()
            defer { tree.remove() }
            defer { server.stop() }
            let (pid, port, client) = (server.pid, server.port, server.client)
            let baseline = try #require(ProcessStatus.openSockets(pid))
            var generator = SeededGenerator(seed: 0xBAD_5EED)
            let prefixes = [
                "", "GET /", "GET /ping HTTP/1.1\r\n", "GET /ping HTTP/1.1\r\nHost: x\r\n",
                "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 300\r\n\r\n",
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
            ]
            let probes: [[UInt8]] = (0..<300).map { index in
                Array(prefixes[index % prefixes.count].utf8)
                    + generator.bytes(Int.random(in: 1...4096, using: &generator))
            }
            for batch in stride(from: 0, to: probes.count, by: 50) {
                try await BlockingCall.run {
                    let connections = try probes[batch..<(batch + 50)].enumerated().map { offset, probe in
                        let connection = try RawConnection(port: port)
                        connection.send(probe)
                        if offset % 2 == 1 { connection.shutdownWrite() }
                        return connection
                    }
                    _ = RawConnection.waitUntilClosed(connections, timeout: .seconds(1))
                    connections.forEach { $0.close() }
                }
                #expect(server.isRunning, "the server died in the batch starting at probe \(batch) (seed 0xBAD5EED)")
                #expect(try await client.get("/ping").text == "pong")
            }
            // Connections the probes left mid-request are closed by connection_timeout (2 s) at the latest.
            let afterwards = ProcessStatus.wait(
                timeout: .seconds(6), { ProcessStatus.openSockets(pid) }, until: { $0 <= baseline })
            #expect(afterwards == baseline, "\(afterwards ?? -1) sockets open 6 s after the probes, \(baseline) before")
            #expect(server.stop().exitCode == 0)
        }

        @Test(
            "half-closed connections: a finished request is answered; an unfinished one is closed by connection_timeout at the latest; nothing stays in flight"
        )
        func halfClosed() async throws {
            let (tree, server) = try await Self.serve()
            defer { tree.remove() }
            defer { server.stop() }
            let port = server.port
            let host = "Host: 127.0.0.1\r\n"
            // (bytes sent before shutdown(SHUT_WR), the status expected, or nil for no answer)
            let cases: [(String, Int?)] = [
                ("GET /pi", nil),
                ("GET /ping HTTP/1.1\r\n", nil),
                ("GET /ping HTTP/1.1\r\n\(host)X-Half: ", nil),
                ("POST /upload HTTP/1.1\r\n\(host)Content-Length: 100\r\n\r\nabc", nil),
                ("POST /upload HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5\r\nhel", nil),
                ("GET /ping HTTP/1.1\r\n\(host)\r\n", 200),
                ("POST /upload HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nhello", 201),
                ("POST /upload HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 201),
            ]
            let outcomes = try await BlockingCall.run {
                let connections = try cases.map { request, _ in
                    let connection = try RawConnection(port: port)
                    connection.send(request)
                    connection.shutdownWrite()
                    return connection
                }
                defer { connections.forEach { $0.close() } }
                let closedAfter = RawConnection.waitUntilClosed(connections, timeout: .seconds(6))
                return zip(closedAfter, connections.map { try? HTTPResponse(raw: $0.received) }).map { ($0, $1) }
            }
            for ((request, expected), (closedAfter, response)) in zip(cases, outcomes) {
                #expect(closedAfter != nil, "\(request.debugDescription): still open 6 s after the client's half-close")
                #expect(
                    response?.statusCode == expected,
                    "\(request.debugDescription): got \(response.map { String($0.statusCode) } ?? "nothing")")
            }
            #expect(try await server.client.get("/ping").text == "pong")
            // Nothing is left in flight: the stop does not wait the 10 s grace for a request that will never end.
            let clock = ContinuousClock()
            let started = clock.now
            let outcome = server.stop()
            #expect(outcome.exitCode == 0)
            #expect(
                clock.now - started < .seconds(5),
                "stopping took \(clock.now - started): a dropped request was still counted in flight")
        }

        /// Known to fail (libmicrohttpd 0.9.75): a connection resumed after its delay is closed without an
        /// answer when the client has already half-closed it, most often while other half-closed
        /// connections linger. A bare libmicrohttpd program with the same flags, suspending for 0.3 s,
        /// loses 11 of 30 such requests the same way; undelayed requests are answered (test above).
        @Test(
            "a delayed request is answered even when its client half-closed after sending it, while other half-closed connections linger"
        )
        func halfClosedDelayedRequest() async throws {
            let (tree, server) = try await Self.serve()
            defer { tree.remove() }
            defer { server.stop() }
            let port = server.port
            let (answered, closedWithoutAnswer) = try await BlockingCall.run {
                let lingering = try [
                    "GET /pi", "GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ",
                    "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc",
                ].map { request in
                    let connection = try RawConnection(port: port)
                    connection.send(request)
                    connection.shutdownWrite()
                    return connection
                }
                defer { lingering.forEach { $0.close() } }
                usleep(200_000)
                var answered = 0
                var closedWithoutAnswer = 0
                for _ in 0..<20 {
                    let connection = try RawConnection(port: port)
                    defer { connection.close() }
                    connection.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    connection.shutdownWrite()
                    let closed = connection.waitUntilClosed(timeout: .milliseconds(1500))
                    if (try? HTTPResponse(raw: connection.received))?.text == "slow" {
                        answered += 1
                    } else if closed != nil {
                        closedWithoutAnswer += 1
                    }
                }
                return (answered, closedWithoutAnswer)
            }
            withKnownIssue(
                "libmicrohttpd 0.9.75 may drop a suspended connection whose client half-closed", isIntermittent: true
            ) {
                #expect(
                    answered == 20,
                    "\(answered) of 20 delayed requests answered; \(closedWithoutAnswer) connections closed without an answer"
                )
            }
            #expect(try await server.client.get("/slow").text == "slow")
        }
    }
}
