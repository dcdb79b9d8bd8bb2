import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// SIGTERM: no new connections, every request in flight answered in full (delayed ones after their
    /// delay), then exit 0 within the 10 s grace.
    @Suite("stopping under load")
    struct ShutdownUnderLoadTests {
        @Test(
            "SIGTERM while 200 requests wait on a 2 s delay: every one gets its full answer, then the process exits 0 within the grace"
        )
        func stopWith200DelayedRequests() async throws {
            let payload = String(repeating: "espresso martini ", count: 300)
            let tree = try TemporaryTree(
                exchanges: ["slow/GET/configuration.json": .text(#"{"delay": 2, "body": "\#(payload)"}"#)],
                configuration: #"{"watch": false}"#
            )
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop(signal: SIGKILL) }
            let client = server.client

            let (batch, signalled) = try await BlockingCall.run {
                let batch = try ParallelRequests.startBlocking(200, client: client, target: "/slow")
                usleep(500_000)  // the server has taken them all in
                let signalled = ContinuousClock.now
                server.send(signal: SIGTERM)
                return (batch, signalled)
            }
            let results = try await batch.results()
            let outcome = await server.waitForExit(timeout: 15)
            let exited = ContinuousClock.now - signalled

            let complete = results.filter { $0.response?.statusCode == 200 && $0.response?.text == payload }.count
            #expect(
                complete == 200,
                "\(complete) of 200 delayed requests got their full answer; first failure: \(results.first { $0.response?.text != payload }?.error ?? "a partial body")"
            )
            let earliest = results.map(\.elapsed).min() ?? .zero
            #expect(earliest >= .seconds(2), "a request was answered after \(earliest): the stop cut its delay short")
            #expect(outcome.exitCode == 0, "\(outcome)")
            #expect(!outcome.timedOut)
            #expect(exited < .seconds(10), "the process took \(exited) to exit after SIGTERM; the grace is 10 s")
        }
    }
}
