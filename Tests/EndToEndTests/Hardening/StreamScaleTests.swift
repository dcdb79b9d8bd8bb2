import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// Streams and throttled bodies at scale: no thread per connection (doc/streams-and-networks.md). The
    /// speed of a thousand streams is a `make bench` row; this proves the shape with 200, on a busy machine.
    @Suite("streams at scale")
    struct StreamScaleTests {
        static let exchanges: [String: TreeEntry] = [
            "events/GET/configuration.json": .text(
                #"{"stream": ["#
                    + (0..<5).map { #"{"delay": 0.2, "id": "\#($0)", "data": {"n": \#($0)}}"# }.joined(separator: ", ")
                    + "]}"),
            "download/GET/configuration.json": #"{"response_file": "blob.bin", "bandwidth": "16KB"}"#,
            "download/GET/blob.bin": .bytes(TestBytes.pseudoRandom(count: 16 * 1024, seed: 5)),
            "hello/GET/configuration.json": #"{"body": "hello"}"#,
            "warm/GET/configuration.json": #"{"stream": [{"data": "w"}, {"delay": 0.01, "data": "w"}]}"#,
        ]

        /// The pool's threads, the timer and the hang-up watcher, and a few the runtime may start: never
        /// one per stream (SPEC: within 8 of the idle count).
        static let allowance = 8

        @Test(
            "200 streams at once: every event, each after its delay, no thread per stream, other requests answered meanwhile"
        )
        func twoHundredStreams() async throws {
            let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (pid, client, port) = (server.pid, server.client, server.port)
            let warm = try StreamingClients(port: port, target: "/warm", count: 4)
            #expect(try await BlockingCall.run { warm.read(timeout: .seconds(5)) { $0.ended } })
            let idle = try #require(ProcessStatus.threads(pid))

            let streams = try StreamingClients(port: port, target: "/events", count: 200)
            let (read, threads, others) = try await BlockingCall.run { () -> (Bool, [Int], [TimedResponse]) in
                var threads: [Int] = []
                var others: [TimedResponse] = []
                let deadline = ContinuousClock.now + .seconds(20)
                var done = false
                while !done, ContinuousClock.now < deadline {
                    done = streams.read(timeout: .milliseconds(150)) { $0.ended }
                    if let count = ProcessStatus.threads(pid) { threads.append(count) }
                    others.append(client.timedBlocking("GET", "/hello"))
                }
                return (done, threads, others)
            }
            #expect(read, "\(streams.responses.filter(\.ended).count) of 200 streams complete")
            let most = threads.max() ?? .max
            #expect(
                most <= idle + Self.allowance, "threads: \(idle) idle, up to \(most) with 200 streams open (\(threads))"
            )
            for response in streams.responses {
                let events = response.chunks.map { String(decoding: $0.bytes, as: UTF8.self) }
                #expect(events == (0..<5).map { "id: \($0)\ndata: {\"n\":\($0)}\n\n" })
                guard response.chunks.count == 5 else { continue }
                // Times count from the request's sending, before the stream's schedule starts: an event can
                // come late on a loaded machine, never before its delays have passed.
                for (index, chunk) in response.chunks.enumerated() {
                    #expect(
                        chunk.at >= .milliseconds(200 * (index + 1)),
                        "event \(index) early: \(response.chunks.map(\.at))")
                }
                #expect(response.chunks[4].at < .seconds(6), "the last event after \(response.chunks[4].at)")
            }
            #expect(
                others.count >= 2 && others.allSatisfy { $0.response?.text == "hello" },
                "other requests answered while the streams ran")
            #expect(others.map(\.elapsed).max() ?? .zero < .seconds(2), "\(others.map(\.elapsed))")
        }

        @Test("200 throttled downloads at once hold no thread each, and each gets every byte")
        func twoHundredDownloads() async throws {
            let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let pid = server.pid
            let warm = try StreamingClients(port: server.port, target: "/warm")
            #expect(try await BlockingCall.run { warm.read(timeout: .seconds(5)) { $0.ended } })
            let idle = try #require(ProcessStatus.threads(pid))
            let downloads = try StreamingClients(port: server.port, target: "/download", count: 200)
            let (read, threads) = try await BlockingCall.run { () -> (Bool, [Int]) in
                var threads: [Int] = []
                let deadline = ContinuousClock.now + .seconds(30)
                var done = false
                while !done, ContinuousClock.now < deadline {
                    done = downloads.read(timeout: .milliseconds(200)) { $0.bodyCompleteAt != nil }
                    if let count = ProcessStatus.threads(pid) { threads.append(count) }
                }
                return (done, threads)
            }
            #expect(read)
            let expected = TestBytes.pseudoRandom(count: 16 * 1024, seed: 5)
            #expect(downloads.responses.allSatisfy { $0.body == expected })
            let times = downloads.responses.map { SlowNetworkTests.seconds($0.bodyCompleteAt) }
            #expect(
                times.min() ?? 0 >= 0.9,
                "16 KiB at 16 KiB/s each, the first 819 bytes at once: 0.95 s; fastest \(times.min() ?? 0) s")
            let most = threads.max() ?? .max
            #expect(
                most <= idle + Self.allowance, "threads: \(idle) idle, up to \(most) with 200 downloads (\(threads))")
        }
    }
}
