import Foundation
import Glibc
import Testing

/// doc/streams-and-networks.md streams, on the wire: Server-Sent Events and raw chunks from the real binary, each after its delay
/// (doc/streams-and-networks.md). Times are bounded below by the delays and above generously, for a busy
/// machine.
@Suite("streams")
struct StreamTests {
    static let exchanges: [String: TreeEntry] = [
        "events/GET/configuration.json": #"""
        {"headers": {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"},
         "stream": [{"delay": 0.1, "event": "token", "id": "1", "data": "Hel"},
                    {"delay": 0.2, "id": "2", "data": "lo\nworld"},
                    {"delay": 0.2, "data": {"done": true, "tokens": [1, 2]}, "retry": 3000},
                    {"comment": "bye"}]}
        """#,
        "feed/GET/configuration.json":
            #"{"stream": [{"body": {"n": 1}}, {"delay": 0.15, "body": {"n": 2, "s": "a b"}}]}"#,
        "log/GET/configuration.json": #"{"stream": [{"body": "line 1\n"}, {"delay": 0.1, "body": "line 2\n"}]}"#,
        "ticks/GET/configuration.json": #"""
        {"template": true, "headers": {"X-Call": "{{call}}"}, "stream_repeat": true,
         "stream": [{"delay": 0.05, "id": "{{call}}", "data": {"q": "{{request.queryParameters.q}}", "at": "{{now}}", "n": "{{uuid}}"}}]}
        """#,
    ]

    static func events(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    }

    @Test("an event stream: each chunk framed as an event, one HTTP chunk each, after its delay")
    func serverSentEvents() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let stream = try StreamingClients(port: server.port, target: "/events")
        let done = try await BlockingCall.run { stream.read(timeout: .seconds(10)) { $0.ended } }
        #expect(done)
        let response = stream.responses[0]
        #expect(response.statusCode == 200)
        #expect(response.header("Content-Type") == "text/event-stream")
        #expect(response.header("Cache-Control") == "no-cache")
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(
            response.chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == [
                "event: token\nid: 1\ndata: Hel\n\n",
                "id: 2\ndata: lo\ndata: world\n\n",
                "retry: 3000\ndata: {\"done\":true,\"tokens\":[1,2]}\n\n",
                ": bye\n\n",
            ])
        let times = response.chunks.map(\.at)
        #expect(
            times[0] >= .milliseconds(100) && times[1] >= .milliseconds(300) && times[2] >= .milliseconds(500),
            "\(times)")
        #expect(times[3] < .seconds(3), "\(times)")
        #expect(
            try await server.client.get("/__espressomartini/exchanges").text.contains(
                #""route":"/events","folder":"events/GET","responses":1,"calls":1"#))
    }

    @Test("raw chunks: JSON values as NDJSON lines, text as it is")
    func rawChunks() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let feed = try StreamingClients(port: server.port, target: "/feed")
        let log = try StreamingClients(port: server.port, target: "/log")
        let read = try await BlockingCall.run {
            feed.read(timeout: .seconds(10)) { $0.ended } && log.read(timeout: .seconds(10)) { $0.ended }
        }
        #expect(read)
        #expect(feed.responses[0].header("Content-Type") == "application/x-ndjson")
        #expect(
            feed.responses[0].chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == [
                "{\"n\":1}\n", "{\"n\":2,\"s\":\"a b\"}\n",
            ])
        #expect(feed.responses[0].chunks[1].at >= .milliseconds(150))
        #expect(log.responses[0].header("Content-Type") == "text/plain; charset=utf-8")
        #expect(log.responses[0].text == "line 1\nline 2\n")
        // An HTTP/1.0 client cannot take chunks: the stream goes raw and the connection closes at its end.
        let old = try await server.client.sendRaw(Array("GET /log HTTP/1.0\r\n\r\n".utf8))
        #expect(String(decoding: old, as: UTF8.self).hasSuffix("\r\n\r\nline 1\nline 2\n"))
    }

    @Test("a repeated, templated stream: each chunk rendered when sent, until the client leaves")
    func repeatedTemplatedStream() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        _ = try await server.client.head("/ticks")  // call 1: HEAD gets the headers, counts, and starts nothing
        let stream = try StreamingClients(port: server.port, target: "/ticks?q=a%22b")
        let read = try await BlockingCall.run { stream.read(timeout: .seconds(10)) { $0.chunks.count >= 4 } }
        #expect(read)
        let response = stream.responses[0]
        #expect(response.header("X-Call") == "2")
        let events = response.chunks.map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(
            events.allSatisfy { $0.hasPrefix("id: 2\ndata: {\"q\":\"a\\\"b\",\"at\":\"20") && $0.hasSuffix("\"}\n\n") },
            "\(events)")
        #expect(Set(events).count == events.count, "each chunk rendered anew: its own uuid")
        #expect(!response.ended)
        stream.close()
        let after = try await server.client.get("/__espressomartini/requests").text
        #expect(
            after.contains(#""method":"HEAD","path":"/ticks""#) && after.contains(#""path":"/ticks","query":"q=a%22b""#)
        )
    }

    @Test("HEAD of a stream: its status and headers, no chunk")
    func headOfAStream() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let head = try StreamingClients(port: server.port, target: "/events", method: "HEAD")
        let read = try await BlockingCall.run { head.read(timeout: .seconds(5)) { $0.headersAt != nil } }
        #expect(read)
        #expect(head.responses[0].statusCode == 200)
        #expect(head.responses[0].header("Content-Type") == "text/event-stream")
        try await Task.sleep(for: .milliseconds(700))
        _ = try await BlockingCall.run { head.read(timeout: .milliseconds(100)) { _ in false } }
        #expect(head.responses[0].chunks.isEmpty && head.responses[0].buffer.isEmpty, "no body bytes after the headers")
    }

    @Test("CORS headers on a stream, and its line in the access log")
    func corsAndTheAccessLog() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"cors": true}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let stream = try StreamingClients(port: server.port, target: "/feed", headers: [("Origin", "http://app.test")])
        let read = try await BlockingCall.run { stream.read(timeout: .seconds(10)) { $0.ended } }
        #expect(read)
        #expect(stream.responses[0].header("Access-Control-Allow-Origin") == "http://app.test")
        #expect(await server.waitForStandardErrorLine { $0.contains("GET /feed 200 GET /feed 1/1") } != nil)
    }

    @Test("a client that leaves a quiet stream gives back its connection and descriptor at once")
    func aClientThatLeavesIsForgotten() async throws {
        let tree = try TemporaryTree(exchanges: [
            "quiet/GET/configuration.json": #"{"stream": [{"data": "hello"}, {"delay": 60, "data": "late"}]}"#
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let pid = server.pid
        // Sockets only: the server makes other descriptors (epoll sets, event descriptors) when it first needs them.
        let idle = try #require(ProcessStatus.openSockets(pid))
        let streams = try StreamingClients(port: server.port, target: "/quiet", count: 20)
        let started = try await BlockingCall.run { streams.read(timeout: .seconds(10)) { !$0.chunks.isEmpty } }
        #expect(started)
        let open = ProcessStatus.wait(
            timeout: .seconds(5), { ProcessStatus.openSockets(pid) }, until: { $0 >= idle + 20 })
        #expect(open.map { $0 >= idle + 20 } == true, "\(open ?? -1) sockets with 20 streams open, \(idle) before")
        let left = ContinuousClock.now
        streams.close()
        let after = ProcessStatus.wait(timeout: .seconds(5), { ProcessStatus.openSockets(pid) }, until: { $0 <= idle })
        let took = ContinuousClock.now - left
        #expect(after.map { $0 <= idle } == true, "\(after ?? -1) sockets 5 s after 20 clients left, \(idle) before")
        #expect(took < .seconds(2), "sockets given back after \(took), though the next chunk is a minute away")
        #expect(try await server.client.get("/__espressomartini/health").statusCode == 200)
    }

    @Test("stopping ends a repeated stream at once, with its last chunk, and exits 0")
    func stoppingEndsARepeatedStream() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let stream = try StreamingClients(port: server.port, target: "/ticks")
        let started = try await BlockingCall.run { stream.read(timeout: .seconds(5)) { !$0.chunks.isEmpty } }
        #expect(started)
        server.send(signal: SIGTERM)
        let (ended, endedAt) = try await BlockingCall.run {
            (stream.read(timeout: .seconds(20)) { $0.ended || $0.closed }, Date())
        }
        #expect(ended)
        #expect(
            stream.responses[0].ended,
            "the stream ended cleanly with the last chunk of the chunked body: a repeated stream ends no other way")
        let outcome = server.stop()
        #expect(outcome.exitCode == 0)
        // From the server's own notice that it stops (a loaded machine may deliver the signal late), to the
        // end of the stream as the client saw it: well before the 10 s a request in flight would get.
        let notice = outcome.standardError.split(separator: "\n").first { $0.contains("NOTICE stopping") }
        let logTime = ISO8601DateFormatter()
        logTime.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let stoppedAt = try #require(notice.flatMap { logTime.date(from: String($0.prefix(24))) }, "\(outcome)")
        #expect(
            endedAt.timeIntervalSince(stoppedAt) < 8,
            "a stream that repeats does not hold the stop for the grace period\n\(outcome)")
    }
}
