import Foundation
import Glibc
import Testing

/// A server with a proxy runs its own serving loops instead of libmicrohttpd's threads (doc/architecture.md):
/// what the tree answers over time (a delay's timer, a script run on the script threads, a stream's chunks)
/// resumes its connection from another thread, which must wake the loop that owns it, while forwarded
/// requests go on; and stopping still lets what is in flight finish.
@Suite("Proxy: the serving loops")
struct ServingLoopTests {
    static let exchanges: [String: TreeEntry] = [
        "slow/GET/configuration.json": #"{"delay": 1, "body": "slow"}"#,
        // Longer than the 10 ms a script may run on the thread that received its request: it finishes on
        // the script threads, which resume the connection.
        "busy/GET/configuration.json": #"""
        {"javascript": "function response(request, cache) { const end = Date.now() + 40; while (Date.now() < end) {} return Response.ok(Body.text('busy done')); }"}
        """#,
        "events/GET/configuration.json": #"""
        {"headers": {"Content-Type": "text/event-stream"},
         "stream": [{"delay": 0.1, "data": "one"}, {"delay": 0.1, "data": "two"}, {"delay": 0.1, "data": "three"}]}
        """#,
    ]

    @Test("delays, scripts and streams of the tree are answered beside forwarded requests")
    func treeAnswersOverTime() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }
        let client = server.client

        let stream = try StreamingClients(port: server.port, target: "/events")
        let (slow, busy, forwarded) = try await BlockingCall.run {
            let slow = try ParallelRequests.startBlocking(32, client: client, target: "/slow")
            let busy = try ParallelRequests.startBlocking(8, client: client, target: "/busy")
            usleep(100_000)
            return (slow, busy, client.timedBlocking("GET", "/json"))
        }
        #expect(try forwarded.get().text == #"{"id": 1, "name": "espresso"}"#)
        #expect(
            forwarded.elapsed < .milliseconds(900),
            "a forwarded request waited \(forwarded.elapsed) behind the delayed ones")

        for result in try await slow.results() {
            #expect(try result.get().text == "slow")
            #expect(
                result.elapsed >= .seconds(1) && result.elapsed < .seconds(3),
                "a delayed answer came after \(result.elapsed)")
        }
        for result in try await busy.results() {
            let response = try result.get()
            #expect(
                response.statusCode == 200 && response.text == "busy done", "\(response.statusCode) \(response.text)")
            #expect(result.elapsed < .seconds(5), "a script's answer came after \(result.elapsed)")
        }
        let ended = try await BlockingCall.run { stream.read(timeout: .seconds(10)) { $0.ended } }
        #expect(ended, "the stream did not end")
        #expect(
            stream.responses[0].chunks.map { String(decoding: $0.bytes, as: UTF8.self) } == [
                "data: one\n\n", "data: two\n\n", "data: three\n\n",
            ])
        let times = stream.responses[0].chunks.map(\.at)
        #expect(times.count == 3 && times[2] >= .milliseconds(300), "\(times)")
    }

    @Test("stopping: delayed requests in flight are answered, then exit 0")
    func stopWithDelaysInFlight() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop(signal: SIGKILL) }
        let client = server.client

        let batch = try await BlockingCall.run {
            let batch = try ParallelRequests.startBlocking(16, client: client, target: "/slow")
            usleep(200_000)  // let the server take them all in
            server.send(signal: SIGTERM)
            return batch
        }
        for result in try await batch.results() {
            #expect(try result.get().text == "slow")
            #expect(result.elapsed >= .seconds(1))
        }
        let outcome = await server.waitForExit(timeout: 12)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(!outcome.timedOut)
    }
}
