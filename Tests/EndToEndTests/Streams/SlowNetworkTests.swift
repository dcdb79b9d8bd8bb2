import Foundation
import Glibc
import Testing

/// doc/streams-and-networks.md slow links and uneven latency, on the wire: `bandwidth` and `network` on a response, an exchange
/// and the server; delay distributions (doc/streams-and-networks.md). Durations are bounded below by what
/// the rate allows and above generously, for a busy machine.
@Suite("slow links")
struct SlowNetworkTests {
    static let blob = TestBytes.pseudoRandom(count: 64 * 1024, seed: 19)
    static let large = TestBytes.pseudoRandom(count: 3 * 1024 * 1024 + 17, seed: 23)

    static let exchanges: [String: TreeEntry] = [
        "slow/GET/configuration.json": #"{"response_file": "blob.bin", "bandwidth": "32KB"}"#,
        "slow/GET/blob.bin": .bytes(blob),
        "large/GET/configuration.json": #"{"response_file": "large.bin", "bandwidth": "12mbit"}"#,
        "large/GET/large.bin": .bytes(large),
        "phone/GET/configuration.json":
            #"{"responses": [{"body": "on edge"}, {"body": "at home", "network": "none"}], "network": "edge"}"#,
        "fast/GET/configuration.json": #"{"body": "fast"}"#,
        "uneven/GET/configuration.json": #"{"delay": {"distribution": "lognormal", "median": 0.3, "sigma": 0}}"#,
        "tokens/GET/configuration.json": #"{"network": "3g", "stream": [{"data": "a"}, {"delay": 0.1, "data": "b"}]}"#,
    ]

    static func seconds(_ duration: Duration?) -> Double {
        guard let duration else { return .infinity }
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("a bandwidth paces a file: 64 KiB at 32 KiB/s takes about 2 s, the bytes as they are")
    func aBandwidthPacesAFile() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let download = try StreamingClients(port: server.port, target: "/slow")
        let done = try await BlockingCall.run { download.read(timeout: .seconds(20)) { $0.bodyCompleteAt != nil } }
        #expect(done)
        let response = download.responses[0]
        #expect(response.body == Self.blob)
        #expect(response.header("Content-Length") == String(Self.blob.count))
        let took = Self.seconds(response.bodyCompleteAt)
        #expect(took >= 1.9, "64 KiB at 32 KiB/s, the first 1.6 KiB at once: 1.95 s; took \(took) s")
        #expect(took < 6, "took \(took) s")
        #expect(Self.seconds(response.headersAt) < 1, "the headers go out at once")
    }

    @Test("a large file on a slow link is read from disk as it goes, not sent at full speed")
    func aLargeFileIsPacedToo() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let download = try StreamingClients(port: server.port, target: "/large")
        let done = try await BlockingCall.run { download.read(timeout: .seconds(30)) { $0.bodyCompleteAt != nil } }
        #expect(done)
        #expect(download.responses[0].body == Self.large)
        let took = Self.seconds(download.responses[0].bodyCompleteAt)
        #expect(took >= 2.0, "3 MiB at 12 mbit/s: 2.1 s; took \(took) s")
        #expect(took < 10, "took \(took) s")
    }

    @Test("a network profile beside responses: its latency before the first byte, its bandwidth after; none lifts it")
    func aProfileForTheWholeExchange() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let explained = try await server.client.get("/__espressomartini/explain?method=GET&path=%2Fphone").text
        #expect(
            explained.contains(#""network":{"profile":"edge","bytes_per_second":30000,"latency":0.4}"#), "\(explained)")
        let edge = server.client.timedBlocking("GET", "/phone")
        let home = server.client.timedBlocking("GET", "/phone")
        #expect(edge.response?.text == "on edge")
        #expect(edge.elapsed >= .milliseconds(400), "edge: 400 ms before the first byte; took \(edge.elapsed)")
        #expect(home.response?.text == "at home")
        #expect(home.elapsed < .milliseconds(400), "network none: full speed; took \(home.elapsed)")
        let second = try await server.client.get("/__espressomartini/explain?method=GET&path=%2Fphone").text
        #expect(second.contains(#""network":null"#), "none: no slowing to explain; \(second)")
    }

    @Test("the server's network slows every exchange without one of its own; a stream is paced and delayed too")
    func theServersNetwork() async throws {
        let tree = try TemporaryTree(
            exchanges: Self.exchanges, configuration: #"{"network": "3g", "bandwidth": "4KB"}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let fast = server.client.timedBlocking("GET", "/fast")
        #expect(fast.response?.text == "fast")
        #expect(fast.elapsed >= .milliseconds(100), "3g: 100 ms before the first byte; took \(fast.elapsed)")
        let tokens = try StreamingClients(port: server.port, target: "/tokens")
        let done = try await BlockingCall.run { tokens.read(timeout: .seconds(10)) { $0.ended } }
        #expect(done)
        #expect(tokens.responses[0].text == "data: a\n\ndata: b\n\n")
        #expect(Self.seconds(tokens.responses[0].headersAt) >= 0.1, "the exchange's own 3g latency")
        #expect(tokens.responses[0].chunks[1].at >= .milliseconds(200), "3g's 100 ms, then the chunk's 100 ms")
        // /slow has a bandwidth of its own (32 KB/s), more specific than the server's 4 KB/s; the server's
        // 3g still gives its latency.
        let download = try StreamingClients(port: server.port, target: "/slow")
        let downloaded = try await BlockingCall.run {
            download.read(timeout: .seconds(20)) { $0.bodyCompleteAt != nil }
        }
        #expect(downloaded)
        let took = Self.seconds(download.responses[0].bodyCompleteAt)
        #expect(took >= 2.0 && took < 8, "the response's 32 KB/s after the server's 100 ms: \(took) s")
    }

    @Test("a lognormal delay of no spread waits its median")
    func aLognormalDelay() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let timed = server.client.timedBlocking("GET", "/uneven")
        #expect(timed.response?.statusCode == 200)
        #expect(timed.elapsed >= .milliseconds(300) && timed.elapsed < .seconds(3), "\(timed.elapsed)")
    }

    @Test("a client that leaves a throttled download gives back its descriptor at once")
    func leavingADownload() async throws {
        let tree = try TemporaryTree(exchanges: [
            "crawl/GET/configuration.json": #"{"response_file": "blob.bin", "bandwidth": 100}"#,
            "crawl/GET/blob.bin": .bytes(Self.blob),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let pid = server.pid
        // Sockets only: the server makes other descriptors (epoll sets, event descriptors) when it first needs them.
        let idle = try #require(ProcessStatus.openSockets(pid))
        let downloads = try StreamingClients(port: server.port, target: "/crawl", count: 10)
        let started = try await BlockingCall.run { downloads.read(timeout: .seconds(5)) { !$0.body.isEmpty } }
        #expect(started)
        downloads.close()
        let after = ProcessStatus.wait(timeout: .seconds(2), { ProcessStatus.openSockets(pid) }, until: { $0 <= idle })
        #expect(after.map { $0 <= idle } == true, "\(after ?? -1) sockets after 10 clients left, \(idle) before")
    }

    @Test("bad values are load errors with their position, and run does not start")
    func badValuesStopTheLoad() async throws {
        let tree = try TemporaryTree(exchanges: [
            "a/GET/configuration.json":
                #"{"bandwidth": "fast", "network": "4g", "stream": [{"delay": -1, "data": "x", "evnt": "e"}]}"#
        ])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["run", "--port", "0"], in: tree.url)
        #expect(outcome.exitCode == 78)
        let file = "network-exchanges/a/GET/configuration.json"
        for expected in [
            "\(file):1:15: error: 'bandwidth' \"fast\" is not a rate",
            "\(file):1:34: error: 'network' must be one of \"edge\", \"3g\", \"lte\", \"slow-wifi\", \"none\", found \"4g\"; did you mean '3g'?",
            "\(file):1:61: error: 'delay' must not be negative; use 0 or more seconds",
            "\(file):1:78: error: unknown key 'evnt' in a stream chunk",
        ] {
            #expect(outcome.standardError.contains(expected), "missing: \(expected)\nin: \(outcome.standardError)")
        }
    }

    @Test("endpoints lists streams and networks, in text and JSON")
    func endpointsKnowTheKeys() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let text = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(text.exitCode == 0)
        #expect(
            text.standardOutput.contains(
                "GET  /phone   1: 200 body \"on edge\" network edge · 2: 200 body \"at home\" network none\n"),
            "\(text.standardOutput)")
        #expect(text.standardOutput.contains("GET  /tokens  1: 200 stream of 2 events network 3g\n"))
        #expect(text.standardOutput.contains("GET  /uneven  1: 200 no body delay lognormal 0.3s ±0\n"))
        let json = try await ServerProcess.runToCompletion(["endpoints", "--json"], in: tree.url)
        #expect(
            json.standardOutput.contains(
                #""stream":[{"data":"a"},{"delay":0.1,"data":"b"}],"stream_repeat":false,"delay":null,"network":"3g""#),
            "\(json.standardOutput)")
        #expect(json.standardOutput.contains(#""response_file":"blob.bin","delay":null,"bandwidth":"32KB""#))
    }
}
