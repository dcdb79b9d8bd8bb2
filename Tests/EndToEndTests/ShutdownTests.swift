import Foundation
import Glibc
import Testing

/// doc/command-line.md SIGINT/SIGTERM: stop accepting, let requests in flight (delayed ones too) finish, exit 0.
@Suite("shutdown")
struct ShutdownTests {
    static let signals: [Int32] = [SIGTERM, SIGINT]

    @Test("idle: the signal ends the process with exit 0", arguments: signals)
    func idleStop(signal: Int32) async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/ping").statusCode == 200)
        let outcome = server.stop(signal: signal)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(outcome.standardOutputLines.count == 1)
        // The port is free again.
        #expect(server.client.connectionError()?.isConnectionRefused == true)
    }

    @Test(
        "delayed requests in flight all get their full answer, new connections are refused, then exit 0",
        arguments: signals)
    func inFlightRequestsFinish(signal: Int32) async throws {
        let payload = String(repeating: "espresso martini ", count: 400)
        let tree = try TemporaryTree(exchanges: [
            "slow/GET/configuration.json": .text(#"{"delay": 1.5, "body": "\#(payload)"}"#)
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop(signal: SIGKILL) }
        let client = server.client

        // On a thread of its own, so that the timing holds while other tests keep the machine busy:
        // 20 delayed requests in flight, the signal, then new connections must soon be refused while
        // the process still runs to finish the delayed ones.
        let (batch, finishedBeforeSignal, refusedAfter, lastError, runningWhenRefused) = try await BlockingCall.run {
            let batch = try ParallelRequests.startBlocking(20, client: client, target: "/slow")
            usleep(300_000)  // let the server take them all in
            let finishedBeforeSignal = batch.finishedCount
            let clock = ContinuousClock()
            let signalled = clock.now
            server.send(signal: signal)
            var lastError: String = "every connection was accepted"
            while clock.now - signalled < .milliseconds(800) {
                if let error = client.connectionError() {
                    if error.isConnectionRefused {
                        return (
                            batch, finishedBeforeSignal, Optional(clock.now - signalled), lastError, server.isRunning
                        )
                    }
                    lastError = error.description
                }
                usleep(10_000)
            }
            return (batch, finishedBeforeSignal, nil, lastError, server.isRunning)
        }
        #expect(finishedBeforeSignal == 0)
        #expect(refusedAfter != nil, "new connections were still accepted 0.8 s after the signal (\(lastError))")
        #expect(runningWhenRefused, "the process ended before its delayed requests were answered")

        let results = try await batch.results()
        for result in results {
            let response = try result.get()
            #expect(response.statusCode == 200)
            #expect(response.text == payload, "a delayed request got a partial or wrong answer")
            #expect(result.elapsed >= .milliseconds(1500))
        }
        let outcome = await server.waitForExit(timeout: 12)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(!outcome.timedOut)
    }
}

extension ShutdownTests {
    @Test("a download in progress when the signal comes completes byte for byte, then exit 0")
    func downloadInProgressCompletes() async throws {
        let bytes = TestBytes.pseudoRandom(count: 24 * 1024 * 1024, seed: 3)
        let tree = try TemporaryTree(exchanges: [
            "big/GET/configuration.json": #"{"response_file": "big.bin"}"#,
            "big/GET/big.bin": .bytes(bytes),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop(signal: SIGKILL) }
        var client = server.client
        client.timeout = 10
        let raw = try await BlockingCall.run { [client] in
            let connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
            defer { connection.close() }
            try connection.write(client.requestBytes("GET", "/big"))
            let head = try connection.readAtLeast(64 * 1024)  // the answer has begun
            server.send(signal: SIGTERM)
            usleep(300_000)  // a slow reader
            return head + (try connection.readToEnd())
        }
        let response = try HTTPResponse(raw: raw)
        #expect(response.statusCode == 200)
        #expect(response.body.count == bytes.count)
        #expect(response.body == bytes, "the download was cut or corrupted by the shut-down")
        let outcome = await server.waitForExit(timeout: 12)
        #expect(outcome.exitCode == 0, "\(outcome)")
    }
}
