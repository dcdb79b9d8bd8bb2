import Foundation
import Glibc
import Testing

/// `record` and forwarding against answers that real servers give and ours did not: a HEAD or 304 that
/// announces a length (or none), a body without a type, a status outside the tree's, heads too large or
/// malformed, the target's own URL in `Location`. Each is forwarded as the target said (or refused with a
/// reason), and replayed from the recorded tree as it was forwarded.
@Suite("Proxy: record, what the target said")
struct RecordingFidelityTests {
    typealias Step = RecordingTests.Step

    @Test(
        "HEAD and 304 answers keep their length: HEAD's Content-Length of 5 MiB, a 304's 1234 or none at all, forwarded and replayed"
    )
    func bodilessLengths() async throws {
        try await RecordingOrderTests.recordAndReplay([
            Step(method: "HEAD", target: "/big?size=5242880"),
            Step(method: "GET", target: "/raw/not-modified"),
            Step(method: "GET", target: "/raw/not-modified-with-length"),
        ]) { recorded in
            let head = try RecordingOrderTests.text(recorded, "big/HEAD/configuration.json")
            #expect(head.contains(#""content_length": 5242880"#), "\(head)")
        }
        // The forwarded and replayed answers were compared with the target's above, less Content-Length:
        // here it is, on both.
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url)
        var forwarded: [HTTPResponse] = []
        for (method, target) in [
            ("HEAD", "/big?size=5242880"), ("GET", "/raw/not-modified"), ("GET", "/raw/not-modified-with-length"),
        ] {
            forwarded.append(try await recorder.client.send(method, target))
        }
        #expect(await RecordingTests.waitForRecordings(recorder, count: 3), "\(recorder.standardError)")
        recorder.stop(signal: SIGINT)
        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        defer { replay.stop() }
        let replayed = [
            try await replay.client.send("HEAD", "/big?size=5242880"),
            try await replay.client.get("/raw/not-modified"),
            try await replay.client.get("/raw/not-modified-with-length"),
        ]
        for answers in [forwarded, replayed] {
            #expect(answers.map { $0.header("Content-Length") } == ["5242880", nil, "1234"])
            #expect(answers.map { $0.header("Transfer-Encoding") } == [nil, nil, nil])
            #expect(answers.map(\.statusCode) == [200, 304, 304] && answers.allSatisfy { $0.body.isEmpty })
        }
    }

    @Test(
        "content_length is for HEAD exchanges and 304s, without a body, and a header's bytes are base64: else a load error at its position"
    )
    func contentLengthKey() async throws {
        let tree = try TemporaryTree(exchanges: [
            "a/GET/configuration.json": #"{"content_length": 10}"#,
            "b/HEAD/configuration.json": "{\n  \"body\": \"x\",\n  \"content_length\": 10\n}",
            "c/HEAD/configuration.json": #"{"content_length": -1}"#,
            "d/GET/configuration.json": #"{"headers": {"X-Name": {"base64": "*"}, "X-Other": {"text": "x"}}}"#,
        ])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        for expected in [
            "a/GET/configuration.json:1:2: error: 'content_length' is for answers sent without a body",
            "b/HEAD/configuration.json:3:3: error: 'content_length' announces a body that is not sent; it cannot go with 'body'",
            "c/HEAD/configuration.json:1:20: error: 'content_length' must be a whole number of bytes",
            "d/GET/configuration.json:1:35: error: header 'X-Name' is not base64",
            "d/GET/configuration.json:1:52: error: header 'X-Other' must be a string, an array of strings, null, or {\"base64\"",
        ] {
            #expect(outcome.standardError.contains(expected), "\(expected)\n\(outcome.standardError)")
        }
    }

    @Test(
        "a tree's 304 and HEAD answer announce their content_length or none, with CORS and on a slow link as without"
    )
    func bodilessFromTheTree() async throws {
        let tree = try TemporaryTree(exchanges: [
            "etag/GET/configuration.json": #"{"status_code": 304, "headers": {"ETag": "\"v1\""}}"#,
            "slow/GET/configuration.json": #"{"status_code": 304, "bandwidth": 1000}"#,
            "file/HEAD/configuration.json": #"{"content_length": 1234, "headers": {"Content-Type": "image/png"}}"#,
        ])
        defer { tree.remove() }
        for arguments in [[], ["--cors"]] {
            let server = try await ServerProcess.serving(tree, arguments)
            defer { server.stop() }
            let origin = [("Origin", "http://app.test")]
            for _ in 0..<2 {
                let etag = try await server.client.get("/etag", headers: origin)
                let slow = try await server.client.get("/slow", headers: origin)
                let head = try await server.client.send("HEAD", "/file", headers: origin)
                #expect(etag.statusCode == 304 && etag.header("Content-Length") == nil, "\(arguments): \(etag.headers)")
                #expect(slow.statusCode == 304 && slow.header("Content-Length") == nil, "\(arguments): \(slow.headers)")
                #expect(head.header("Content-Length") == "1234" && head.body.isEmpty, "\(arguments): \(head.headers)")
                #expect(
                    (etag.header("Access-Control-Allow-Origin") != nil) == (arguments == ["--cors"]),
                    "\(arguments): \(etag.headers)")
            }
        }
    }

    @Test(
        "a body without a Content-Type is forwarded and replayed without one (\"Content-Type\": null); a status the tree cannot hold is forwarded, not recorded, and counted in the summary"
    )
    func untypedAndOddStatus() async throws {
        try await RecordingOrderTests.recordAndReplay([Step(method: "GET", target: "/raw/untyped")]) { recorded in
            let written = try RecordingOrderTests.text(recorded, "raw/untyped/GET/configuration.json")
            #expect(written.contains(#""Content-Type": null"#), "\(written)")
        }
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url)
        let untyped = try await recorder.client.get("/raw/untyped")
        #expect(untyped.text == "hello" && untyped.header("Content-Type") == nil)
        let odd = try await recorder.client.get("/raw/odd-status")
        #expect(odd.statusCode == 999 && odd.text == "odd")
        let logged = await recorder.waitForStandardErrorLine(timeout: 10) {
            $0.contains("GET /raw/odd-status was not recorded: the target answered 999")
        }
        #expect(logged != nil, "\(recorder.standardError)")
        #expect(await RecordingTests.waitForRecordings(recorder, count: 1))
        let outcome = recorder.stop(signal: SIGINT)
        #expect(
            outcome.standardOutput.hasSuffix(
                "recorded 1 exchange, 1 response into recorded; 1 answer not recorded (the log says why)\n"),
            "\(outcome.standardOutput)")
    }

    @Test(
        "a head larger than a connection can send, or with a line that is not a header, is a 502 with the reason, journaled, and nothing is recorded"
    )
    func refusedHeads() async throws {
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url)
        for (target, reason) in [
            ("/raw/big-head", "bytes of headers, more than the"),
            ("/raw/not-a-header", #"a line of the head is not a header: \"this is not a header\""#),
        ] {
            let answer = try await recorder.client.get(target)
            #expect(answer.statusCode == 502, "\(target): \(answer.statusCode) \(answer.text)")
            #expect(
                answer.text.contains(#""error":"upstream_unavailable""#) && answer.text.contains(reason),
                "\(target): \(answer.text)")
        }
        // The target still answers what it can on the same server.
        #expect(try await recorder.client.get("/json").statusCode == 200)
        #expect(await RecordingTests.waitForRecordings(recorder, count: 1))
        let journal = try await recorder.client.get("/__espressomartini/requests")
        let statuses = (try JSONSerialization.jsonObject(with: Data(journal.body)) as? [[String: Any]] ?? []).map {
            $0["status"] as? Int
        }
        #expect(statuses == [502, 502, 200], "\(journal.text)")
        let outcome = recorder.stop(signal: SIGINT)
        #expect(outcome.standardOutput.hasSuffix("recorded 1 exchange, 1 response into recorded\n"), "\(outcome)")
        let files = try FileManager.default.subpathsOfDirectory(
            atPath: folder.url.appendingPathComponent("recorded").path)
        #expect(!files.contains { $0.hasPrefix("raw") }, "\(files)")
    }

    @Test(
        "the target's URL in Location and Link is the mock's: forwarded with the request's Host, replayed with the replaying server's"
    )
    func targetURLRewritten() async throws {
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url)
        let forwarded = try await recorder.client.get("/raw/redirect")
        let recorderURL = "http://127.0.0.1:\(recorder.port)"
        #expect(forwarded.statusCode == 302)
        #expect(forwarded.header("Location") == "\(recorderURL)/json", "\(forwarded.headers)")
        #expect(forwarded.header("Link") == "<\(recorderURL)/raw/redirect?page=2>; rel=next", "\(forwarded.headers)")
        #expect(await RecordingTests.waitForRecordings(recorder, count: 1))
        recorder.stop(signal: SIGINT)
        let written = try RecordingOrderTests.text(
            folder.url.appendingPathComponent("recorded"), "raw/redirect/GET/configuration.json")
        #expect(
            written.contains(#""template": true"#) && written.contains("http://{{request.headers.host}}/json")
                && !written.contains(upstream.url), "\(written)")
        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        defer { replay.stop() }
        let replayed = try await replay.client.get("/raw/redirect")
        #expect(replayed.statusCode == 302)
        #expect(replayed.header("Location") == "http://127.0.0.1:\(replay.port)/json", "\(replayed.headers)")
        #expect(
            replayed.header("Link") == "<http://127.0.0.1:\(replay.port)/raw/redirect?page=2>; rel=next",
            "\(replayed.headers)")
    }

    @Test(
        "a header byte that is not UTF-8 (Latin-1) is forwarded, recorded as {\"base64\": …} and replayed byte for byte"
    )
    func latin1HeaderBytes() async throws {
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url)
        let request = Array("GET /raw/latin1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)
        let latin1 = Array("\r\nX-Name: caf".utf8) + [0xE9] + Array("\r\n".utf8)
        let forwarded = try await recorder.client.sendRaw(request)
        #expect(forwarded.firstRange(of: latin1) != nil, "\(String(decoding: forwarded, as: UTF8.self))")
        #expect(await RecordingTests.waitForRecordings(recorder, count: 1))
        recorder.stop(signal: SIGINT)
        let written = try RecordingOrderTests.text(
            folder.url.appendingPathComponent("recorded"), "raw/latin1/GET/configuration.json")
        #expect(written.contains(#""X-Name": {"#) && written.contains(#""base64": "Y2Fm6Q==""#), "\(written)")
        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        defer { replay.stop() }
        let replayed = try await replay.client.sendRaw(request)
        #expect(replayed.firstRange(of: latin1) != nil, "\(String(decoding: replayed, as: UTF8.self))")
    }

    @Test("run --proxy URL --record creates a missing requests folder, as record does")
    func spyModeCreatesTheFolder() async throws {
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let server = try await ServerProcess.start(
            ["run", "--proxy", upstream.url, "--record", "--port", "0", "--requests-folder", "spied"], in: folder.url)
        defer { server.stop() }
        #expect(try await server.client.get("/json").statusCode == 200)
        let written = folder.url.appendingPathComponent("spied/json/GET/configuration.json").path
        #expect(FileManager.default.fileExists(atPath: written), "\(server.standardError)")
    }
}
