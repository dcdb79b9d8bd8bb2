import Foundation
import Glibc
import Testing

/// `espressomartini record --target URL`: every request forwarded and written into the tree, which then
/// answers those requests as the target did.
@Suite("Proxy: record")
struct RecordingTests {
    /// One request of a recording, and what came back through the recorder (the target's answer).
    struct Step {
        let method: String
        let target: String
        var headers: [(String, String)] = []
        var body: [UInt8]?
    }

    /// The texts the upstream encodes for `/gzip`, `/deflate` and `/br`.
    static func decodedText(_ encoding: String) -> String {
        #"{"encoding": "\#(encoding)", "text": "espresso martini, shaken hard, served cold"}"#
    }

    /// Headers as compared in the round trip: names in lower case, without those the recording drops
    /// (`Date`, `Content-Length`, hop-by-hop ones, a decoded `Content-Encoding`), sorted.
    static func comparable(_ response: HTTPResponse) -> [String] {
        let dropped: Set<String> = [
            "date", "content-length", "transfer-encoding", "connection", "keep-alive", "content-encoding",
        ]
        return response.headers.filter { !dropped.contains($0.name.lowercased()) }.map {
            "\($0.name.lowercased()): \($0.value)"
        }.sorted()
    }

    /// Starts `record` into `recorded/` (created) of a fresh folder.
    static func recorder(_ upstream: Upstream, in folder: URL, _ extra: [String] = []) async throws -> ServerProcess {
        try await ServerProcess.start(
            ["record", "--target", upstream.url, "--port", "0", "--requests-folder", "recorded"] + extra, in: folder)
    }

    /// Waits (bounded) until the recorder has logged `count` exchanges written or found already written.
    static func waitForRecordings(_ server: ServerProcess, count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let lines = server.standardError.split(separator: "\n")
            if lines.filter({ $0.contains(" INFO recorded ") || $0.contains("nothing new recorded") }).count >= count {
                return true
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    static func freshFolder() throws -> TemporaryTree {
        let tree = try TemporaryTree()
        try FileManager.default.removeItem(at: tree.url.appendingPathComponent(TemporaryTree.requestsFolder))
        return tree
    }

    @Test(
        "the round trip: the recorded tree answers the recorded requests, in order, with the target's status, body bytes and headers"
    )
    func roundTrip() async throws {
        let upstream = try await Upstream()
        let folder = try Self.freshFolder()
        defer { folder.remove() }
        let recorder = try await Self.recorder(upstream, in: folder.url)
        let steps = [
            Step(method: "GET", target: "/json"),
            Step(method: "GET", target: "/png"),
            Step(method: "GET", target: "/gzip", headers: [("Accept-Encoding", "gzip")]),
            Step(method: "GET", target: "/deflate"),
            Step(method: "GET", target: "/br"),
            Step(method: "GET", target: "/counter"),
            Step(method: "GET", target: "/counter"),
            Step(method: "GET", target: "/counter"),
            Step(method: "GET", target: "/json"),
            Step(method: "GET", target: "/echo/query?x=1&y=2"),
            Step(method: "GET", target: "/echo/query?x=3"),
            Step(method: "GET", target: "/echo/query"),
            Step(method: "GET", target: "/echo/only?x=1"),
            Step(
                method: "POST", target: "/echo/orders", headers: [("Content-Type", "application/json")],
                body: Array(#"{"item": "cup", "n": 2}"#.utf8)),
            Step(
                method: "POST", target: "/echo/orders",
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("item=saucer&n=1".utf8)),
            Step(
                method: "POST", target: "/echo/orders", headers: [("Content-Type", "text/plain")],
                body: Array("just text".utf8)),
            Step(method: "GET", target: "/echo/files/*/x"),
            Step(method: "GET", target: "/echo/users/{id}"),
            Step(method: "GET", target: "/echo/GET/x"),
            Step(method: "HEAD", target: "/json"),
            Step(method: "GET", target: "/empty"),
            Step(method: "GET", target: "/nowhere"),
            Step(method: "DELETE", target: "/echo/item"),
        ]
        var answers: [HTTPResponse] = []
        for (index, step) in steps.enumerated() {
            answers.append(
                try await recorder.client.send(step.method, step.target, headers: step.headers, body: step.body))
            #expect(
                await Self.waitForRecordings(recorder, count: index + 1),
                "step \(index + 1) was not written:\n\(recorder.standardError)")
            // The tree loads without an error or a warning after each exchange written.
            let check = try await ServerProcess.runToCompletion(
                ["endpoints", "--requests-folder", "recorded"], in: folder.url)
            #expect(check.exitCode == 0 && check.standardError.isEmpty, "after \(step.method) \(step.target): \(check)")
        }
        #expect(answers[5].text == #"{"count": 1}"# && answers[7].text == #"{"count": 3}"#)
        let outcome = recorder.stop(signal: SIGINT)
        #expect(outcome.exitCode == 0)
        #expect(
            outcome.standardOutput.hasSuffix("recorded 16 exchanges, 22 responses into recorded\n"),
            "\(outcome.standardOutput)")

        let recorded = folder.url.appendingPathComponent("recorded")
        let files = Set(try FileManager.default.subpathsOfDirectory(atPath: recorded.path))
        for expected in [
            "echo/files/%2A/x/GET/configuration.json", "echo/users/%7Bid%7D/GET/configuration.json",
            "echo/%47ET/x/GET/configuration.json",
            "png/GET/response-1.png", "json/GET/response-1.json", "counter/GET/response-3.json",
            "json/HEAD/configuration.json",
        ] {
            #expect(files.contains(expected), "\(expected) is not in \(files.sorted())")
        }
        #expect(
            !files.contains { $0.split(separator: "/").contains { $0.hasPrefix(".") } },
            "hidden files or folders are left: \(files.sorted())")

        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        defer { replay.stop() }
        for (step, original) in zip(steps, answers) {
            let again = try await replay.client.send(step.method, step.target, headers: step.headers, body: step.body)
            let name = "\(step.method) \(step.target)"
            #expect(
                again.statusCode == original.statusCode,
                "\(name): \(again.statusCode), the target gave \(original.statusCode)")
            let encoding = original.header("Content-Encoding")
            let expectedBody = encoding.map { Array(Self.decodedText($0).utf8) } ?? original.body
            #expect(
                again.body == expectedBody,
                "\(name): \(again.text) instead of \(String(decoding: expectedBody, as: UTF8.self))")
            #expect(again.header("Content-Encoding") == nil, "\(name)")
            #expect(Self.comparable(again) == Self.comparable(original), "\(name)")
        }
        // Literal segments match only themselves.
        let literal = try await replay.client.get("/echo/users/42")
        #expect(
            literal.statusCode == 404, "/echo/users/42 answered by the folder for the literal {id}: \(literal.text)")
        let star = try await replay.client.get("/echo/files/y/x")
        #expect(star.statusCode == 404)
        // No fallback: a request with another query is no recorded one (a request recorded without a query has
        // no condition on it, so /echo/query answers any query).
        let other = try await replay.client.get("/echo/only?x=4")
        #expect(other.statusCode == 404 && other.text.contains("no variant"), "\(other.text)")
    }

    /// The upstream's `noise(size)`.
    static func noise(_ size: Int) -> [UInt8] {
        var x: UInt32 = 1
        return (0..<size).map { _ in
            x = (x &* 1_103_515_245 &+ 12345) & 0x7FFF_FFFF
            return UInt8(truncatingIfNeeded: x >> 16)
        }
    }

    @Test("answers too large to keep in memory are written through a file, decoded when gzip; small ones whole")
    func largeAnswers() async throws {
        let upstream = try await Upstream()
        let folder = try Self.freshFolder()
        defer { folder.remove() }
        let recorder = try await Self.recorder(upstream, in: folder.url)
        // 100 000 and 200 000 bytes arrive (more than the 64 KiB kept in memory), and 1 000.
        let targets = ["/noise?size=100000", "/big?size=200000", "/noise?size=1000"]
        for target in targets { _ = try await recorder.client.get(target) }
        #expect(await Self.waitForRecordings(recorder, count: targets.count), "\(recorder.standardError)")
        #expect(recorder.stop(signal: SIGINT).exitCode == 0)
        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        defer { replay.stop() }
        for (target, expected) in zip(
            targets, [Self.noise(100_000), (0..<200_000).map { UInt8($0 % 256) }, Self.noise(1000)])
        {
            let again = try await replay.client.get(target)
            #expect(
                again.statusCode == 200 && again.body == expected && again.header("Content-Encoding") == nil,
                "\(target): \(again.body.count) bytes")
        }
        let recorded = folder.url.appendingPathComponent("recorded").path
        let files = try FileManager.default.subpathsOfDirectory(atPath: recorded)
        #expect(
            !files.contains { $0.split(separator: "/").contains { $0.hasPrefix(".") } },
            "hidden files or folders are left: \(files.sorted())")
        // Every body file, decoded through a file or in memory, is readable by all like the rest of the tree.
        let bodies = files.filter { $0.split(separator: "/").last!.hasPrefix("response") }
        #expect(bodies.count == targets.count, "\(files.sorted())")
        for body in bodies {
            let mode =
                try FileManager.default.attributesOfItem(atPath: recorded + "/" + body)[.posixPermissions] as? Int ?? 0
            #expect(mode == 0o644, "\(body): \(String(mode, radix: 8))")
        }
    }

    @Test(
        "credentials are not written unless --match-header names them (a cookie's name is); --redact hides a response header's value"
    )
    func secrets() async throws {
        let upstream = try await Upstream()
        let folder = try Self.freshFolder()
        defer { folder.remove() }
        let recorder = try await Self.recorder(
            upstream, in: folder.url, ["--redact", "X-Upstream", "--match-header", "X-Client"])
        let secretHeaders = [
            ("Authorization", "Bearer auth-secret"), ("Cookie", "session=cookie-secret"), ("X-Client", "tests"),
        ]
        _ = try await recorder.client.get("/cookie", headers: secretHeaders)
        _ = try await recorder.client.get("/json", headers: secretHeaders)
        #expect(await Self.waitForRecordings(recorder, count: 2))
        recorder.stop(signal: SIGINT)
        let recorded = folder.url.appendingPathComponent("recorded")
        var everything = ""
        for file in try FileManager.default.subpathsOfDirectory(atPath: recorded.path) {
            if let data = FileManager.default.contents(atPath: recorded.appendingPathComponent(file).path) {
                everything += String(decoding: data, as: UTF8.self)
            }
        }
        #expect(
            !everything.contains("auth-secret") && !everything.contains("cookie-secret")
                && !everything.contains("upstream-secret"))
        let cookie = try String(
            contentsOf: recorded.appendingPathComponent("cookie/GET/configuration.json"), encoding: .utf8)
        #expect(cookie.contains(#""Set-Cookie": "session=REDACTED; Path=/""#), "the cookie's name stays: \(cookie)")
        let json = try String(
            contentsOf: recorded.appendingPathComponent("json/GET/configuration.json"), encoding: .utf8)
        #expect(json.contains(#""X-Upstream": "REDACTED""#) && json.contains(#""X-Client": "tests""#), "\(json)")
    }

    @Test("--repeats first keeps an identical request's first answer; --match-header makes a header a condition")
    func repeatsFirst() async throws {
        let upstream = try await Upstream()
        let folder = try Self.freshFolder()
        defer { folder.remove() }
        let recorder = try await Self.recorder(
            upstream, in: folder.url, ["--repeats", "first", "--match-header", "X-Client"])
        for _ in 0..<3 { _ = try await recorder.client.get("/counter", headers: [("X-Client", "a")]) }
        _ = try await recorder.client.get("/counter")
        #expect(await Self.waitForRecordings(recorder, count: 4))
        let outcome = recorder.stop(signal: SIGINT)
        #expect(
            outcome.standardOutput.hasSuffix("recorded 1 exchange, 2 responses into recorded\n"),
            "\(outcome.standardOutput)")
        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        defer { replay.stop() }
        for _ in 0..<2 {
            #expect(try await replay.client.get("/counter", headers: [("X-Client", "a")]).text == #"{"count": 1}"#)
        }
        #expect(try await replay.client.get("/counter").text == #"{"count": 4}"#)
        #expect(try await replay.client.get("/counter", headers: [("X-Client", "b")]).statusCode == 404)
    }

    @Test("spy mode: a miss is forwarded and recorded, and the tree answers the next identical request")
    func spyMode() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree(
            exchanges: ["hand/GET/configuration.json": #"{"body": "written by hand"}"#],
            configuration: #"{"proxy": {"target": "\#(upstream.url)", "record": true}}"#
        )
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let first = try await server.client.get("/counter?page=1")
        #expect(first.text == #"{"count": 1}"#)
        // The answer ends once the exchange is written and the tree reloaded: no wait is needed.
        let second = try await server.client.get("/counter?page=1")
        #expect(second.text == #"{"count": 1}"#, "the second request went to the target: \(second.text)")
        let other = try await server.client.get("/counter?page=2")
        #expect(other.text == #"{"count": 2}"#)
        let empty = try await server.client.get("/empty")
        let emptyAgain = try await server.client.get("/empty")
        #expect(empty.statusCode == 204 && emptyAgain.statusCode == 204)
        #expect(try await server.client.get("/hand").text == "written by hand")
        let hits = try await upstream.hits().paths
        #expect(hits["/counter"] == 2 && hits["/empty"] == 1 && hits["/hand"] == nil, "\(hits)")
        let journal = try #require(
            try await server.client.get("/__espressomartini/requests").json() as? [[String: Any]])
        let summary = journal.map {
            "\($0["path"]!)?\($0["query"]!) \(($0["proxied"] as? Bool) == true) \($0["route"] as? String ?? "-")"
        }
        #expect(
            summary == [
                "/counter?page=1 true -", "/counter?page=1 false /counter", "/counter?page=2 true -", "/empty? true -",
                "/empty? false /empty", "/hand? false /hand",
            ])
        let configuration = try String(
            contentsOf: tree.url.appendingPathComponent("network-exchanges/counter/GET/configuration.json"),
            encoding: .utf8)
        #expect(configuration.contains(#""page": "1""#) && configuration.contains(#""page": "2""#), "\(configuration)")
    }

    @Test(
        "record needs a target URL, --record needs a proxy, --repeats takes sequence or first: exit 64 with a message")
    func badArguments() async throws {
        let folder = try Self.freshFolder()
        defer { folder.remove() }
        for (arguments, message) in [
            (["record", "--port", "0"], "Give the API to record with --target URL"),
            (
                ["record", "--target", "api.example.com"],
                "--target 'api.example.com' is not an http:// or https:// URL"
            ),
            (["record", "--target", "http://127.0.0.1:9", "--repeats", "all"], "--repeats must be sequence or first"),
            (
                ["record", "--target", "http://127.0.0.1:9", "--match-header", "Bad Name"],
                "'Bad Name' is not a header name"
            ),
            (["run", "--record", "--port", "0"], "--record records what a proxy forwards: give --proxy URL too"),
            (["run", "--proxy", "ftp://a", "--port", "0"], "--proxy 'ftp://a' is not an http:// or https:// URL"),
        ] {
            let outcome = try await ServerProcess.runToCompletion(arguments, in: folder.url)
            #expect(outcome.exitCode == 64 && outcome.standardError.contains(message), "\(arguments): \(outcome)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("network-exchanges").path))
    }
}
