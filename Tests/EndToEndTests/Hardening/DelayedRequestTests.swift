import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// Delays park connections (libmicrohttpd suspends them; a Dispatch timer resumes them): no thread waits.
    @Suite("delays at scale")
    struct DelayedRequestTests {
        static let exchanges: [String: TreeEntry] = [
            "slow/GET/configuration.json": #"{"delay": 2, "body": "slow"}"#,
            "warm/GET/configuration.json": #"{"delay": 0.05, "body": "warm"}"#,
        ]

        /// Measured on the 2-core machine this was written on: 7 threads after the warm-up, 7 all the time
        /// 200 requests wait, 7 once they are answered (plain debug build); with the address sanitizer 7,
        /// then 5 to 7 (idle Dispatch workers leave), then 7. The bounds allow Dispatch a small constant
        /// of its own, never one thread per request.
        static let waitingAllowance = 4
        static let answeredAllowance = 8

        @Test("200 requests waiting on a 2 s delay add no thread to the server, and are all answered after the delay")
        func delaysHoldNoThreads() async throws {
            let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (pid, client) = (server.pid, server.client)
            // Warm-up: a few short delays, so that Dispatch has started its timer and worker threads.
            let warm = try await ParallelRequests.start(4, client: client, target: "/warm")
            #expect(try await warm.results().allSatisfy { $0.response?.text == "warm" })
            try await Task.sleep(for: .milliseconds(200))
            let before = try #require(ProcessStatus.threads(pid))

            let (batch, waiting) = try await BlockingCall.run {
                let batch = try ParallelRequests.startBlocking(200, client: client, target: "/slow")
                var waiting: [Int] = []
                for _ in 0..<12 {  // 0.1 s to 1.3 s after the requests were sent, well before the delay ends
                    usleep(100_000)
                    if let threads = ProcessStatus.threads(pid) { waiting.append(threads) }
                }
                return (batch, waiting)
            }
            let results = try await batch.results()
            let after = try #require(ProcessStatus.threads(pid))
            let most = waiting.max() ?? .max
            #expect(
                most <= before + Self.waitingAllowance,
                "threads: \(before) before, up to \(most) while 200 requests wait (\(waiting))")
            #expect(
                after <= before + Self.answeredAllowance,
                "threads: \(before) before, \(after) once 200 delayed requests were answered")
            let answered = results.filter { $0.response?.statusCode == 200 && $0.response?.text == "slow" }.count
            #expect(
                answered == 200,
                "\(answered) of 200 delayed requests answered; first failure: \(results.first { $0.error != nil }?.error ?? "-")"
            )
            let earliest = results.map(\.elapsed).min() ?? .zero
            let latest = results.map(\.elapsed).max() ?? .zero
            #expect(earliest >= .seconds(2), "a request was answered after \(earliest), before its delay")
            #expect(latest < .seconds(5), "the last of 200 delayed requests took \(latest)")
            #expect(server.stop().exitCode == 0)
        }
    }
}
