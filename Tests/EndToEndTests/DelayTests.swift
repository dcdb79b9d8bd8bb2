import Foundation
import Glibc
import Testing

/// doc/matching.md delays: the response's `delay`, else the global one (file or `--delay`); a delay holds no thread.
/// Times are measured on the threads doing the exchanges, so parallel tests cannot inflate them; upper
/// bounds only ever prove that a delay was *not* applied (they sit well below that delay).
@Suite("delays")
struct DelayTests {
    @Test("a response's delay is waited before it is answered; the next response has none")
    func responseDelay() async throws {
        let tree = try TemporaryTree(exchanges: [
            "slow/GET/configuration.json": #"[{"delay": 1, "body": "slow"}, {"body": "quick"}]"#
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let slow = try await server.client.timed("GET", "/slow")
        #expect(try slow.get().text == "slow")
        #expect(slow.elapsed >= .seconds(1), "answered after \(slow.elapsed)")
        let quick = try await server.client.timed("GET", "/slow")
        #expect(try quick.get().text == "quick")
        #expect(quick.elapsed < .milliseconds(800), "the second response has no delay but took \(quick.elapsed)")
    }

    static let globalDelayExchanges: [String: TreeEntry] = [
        "plain/GET/configuration.json": #"{"body": "plain"}"#,
        "zero/GET/configuration.json": #"{"body": "zero", "delay": 0}"#,
        "longer/GET/configuration.json": #"{"body": "longer", "delay": 1.5}"#,
    ]

    /// With a global delay of 1 s: no own delay → 1 s; `delay: 0` → none; `delay: 1.5` → 1.5 s.
    static func checkGlobalDelay(_ server: ServerProcess) async throws {
        let client = server.client
        async let plainAnswer = client.timed("GET", "/plain")
        async let zeroAnswer = client.timed("GET", "/zero")
        async let longerAnswer = client.timed("GET", "/longer")
        let (plain, zero, longer) = try await (plainAnswer, zeroAnswer, longerAnswer)
        #expect(try plain.get().text == "plain")
        #expect(plain.elapsed >= .seconds(1), "the global delay was not applied: \(plain.elapsed)")
        #expect(try zero.get().text == "zero")
        #expect(
            zero.elapsed < .milliseconds(800), "a response delay of 0 must override the global delay: \(zero.elapsed)")
        #expect(try longer.get().text == "longer")
        #expect(
            longer.elapsed >= .milliseconds(1500),
            "the response's own delay must override the global one: \(longer.elapsed)")
    }

    @Test("the global delay from the configuration file; a response's delay overrides it")
    func globalDelayFromFile() async throws {
        let tree = try TemporaryTree(exchanges: Self.globalDelayExchanges, configuration: #"{"delay": 1}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        try await Self.checkGlobalDelay(server)
    }

    @Test("the global delay from --delay; a response's delay overrides it")
    func globalDelayFromFlag() async throws {
        let tree = try TemporaryTree(exchanges: Self.globalDelayExchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--delay", "1"])
        defer { server.stop() }
        try await Self.checkGlobalDelay(server)
    }

    @Test("64 parallel requests on a 1 s delay wait side by side while another route answers at once")
    func delaysDoNotBlock() async throws {
        let tree = try TemporaryTree(exchanges: [
            "slow/GET/configuration.json": #"{"delay": 1, "body": "slow"}"#,
            "fast/GET/configuration.json": #"{"body": "fast"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        // On a thread of its own: release the 64, give the server a moment to take them in, then ask /fast.
        let (batch, fast, finishedBeforeFast) = try await BlockingCall.run {
            let batch = try ParallelRequests.startBlocking(64, client: client, target: "/slow")
            usleep(150_000)
            let fast = client.timedBlocking("GET", "/fast")
            return (batch, fast, batch.finishedCount)
        }
        #expect(try fast.get().text == "fast")
        #expect(
            fast.elapsed < .milliseconds(500),
            "a request to another route waited \(fast.elapsed) behind the delayed ones")
        #expect(finishedBeforeFast == 0, "\(finishedBeforeFast) delayed requests finished before the fast one")

        let results = try await batch.results()
        for result in results {
            let response = try result.get()
            #expect(response.statusCode == 200)
            #expect(response.text == "slow")
            #expect(result.elapsed >= .seconds(1), "answered early: \(result.elapsed)")
        }
        let slowest = results.map(\.elapsed).max() ?? .zero
        #expect(slowest < .seconds(2), "the 64 delayed requests took \(slowest) in all: delays hold threads")
    }

    @Test("a delay range: 64 parallel requests each wait within [0.5, 1.5] s, spread over it, side by side")
    func delayRange() async throws {
        let tree = try TemporaryTree(exchanges: [
            "uneven/GET/configuration.json": #"{"delay": {"min": 0.5, "max": 1.5}, "body": "uneven"}"#,
            "fast/GET/configuration.json": #"{"body": "fast"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let client = server.client
        let (batch, fast) = try await BlockingCall.run {
            let batch = try ParallelRequests.startBlocking(64, client: client, target: "/uneven")
            usleep(100_000)
            return (batch, client.timedBlocking("GET", "/fast"))
        }
        #expect(
            fast.elapsed < .milliseconds(400),
            "a request to another route waited \(fast.elapsed) behind the delayed ones")
        let results = try await batch.results()
        for result in results {
            #expect(try result.get().text == "uneven")
            #expect(result.elapsed >= .milliseconds(500), "answered before the range's min: \(result.elapsed)")
        }
        let elapsed = results.map(\.elapsed).sorted()
        #expect(
            elapsed.last! < .milliseconds(2300),
            "the 64 delayed requests took \(elapsed.last!) in all: delays hold threads")
        // Uniform draws: the fastest quarter and the slowest quarter lie far apart.
        #expect(elapsed[48] - elapsed[16] > .milliseconds(250), "waits not spread: \(elapsed[16]) … \(elapsed[48])")
    }
}
