import Foundation
import Glibc
import Testing

/// `espressomartini record --target URL` against a server whose answers depend on the order of requests, on
/// headers that decide the answer, and on names that are methods': the recorded tree answers each request as
/// the target did, in the recorded order or, where the request says what it wants (`If-None-Match`,
/// `Range`), in any order.
@Suite("Proxy: record, order and repeats")
struct RecordingOrderTests {
    typealias Step = RecordingTests.Step

    /// Records `steps` through `record` (with `arguments`) into `recorded/`, then replays the steps at the
    /// indices `order` (all of them in the recorded order by default) against the recorded tree: each answer
    /// has the status, body and headers the target gave that step. `inspect` looks at the recorded folder
    /// first.
    static func recordAndReplay(
        _ steps: [Step], replaying order: [Int]? = nil, _ arguments: [String] = [],
        summary: String? = nil, inspect: (URL) throws -> Void = { _ in }
    ) async throws {
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url, arguments)
        var answers: [HTTPResponse] = []
        for step in steps {
            answers.append(
                try await recorder.client.send(step.method, step.target, headers: step.headers, body: step.body))
        }
        #expect(
            await RecordingTests.waitForRecordings(recorder, count: steps.count),
            "not every step was written:\n\(recorder.standardError)")
        let outcome = recorder.stop(signal: SIGINT)
        #expect(outcome.exitCode == 0, "\(outcome)")
        if let summary {
            #expect(outcome.standardOutput.hasSuffix(summary + "\n"), "\(outcome.standardOutput)")
        }
        let check = try await ServerProcess.runToCompletion(
            ["endpoints", "--requests-folder", "recorded"], in: folder.url)
        #expect(check.exitCode == 0 && check.standardError.isEmpty, "the recorded tree: \(check)")
        try inspect(folder.url.appendingPathComponent("recorded"))

        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        defer { replay.stop() }
        for index in order ?? Array(steps.indices) {
            let (step, original) = (steps[index], answers[index])
            let again = try await replay.client.send(step.method, step.target, headers: step.headers, body: step.body)
            let name = "step \(index + 1), \(step.method) \(step.target) \(step.headers)"
            #expect(
                again.statusCode == original.statusCode,
                "\(name): \(again.statusCode) \(again.text), the target gave \(original.statusCode)")
            #expect(again.body == original.body, "\(name): \(again.text) instead of \(original.text)")
            #expect(RecordingTests.comparable(again) == RecordingTests.comparable(original), "\(name)")
        }
    }

    static func text(_ folder: URL, _ file: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    }

    @Test("the same conditions in another order (query, JSON body, form) are one variant, whose sequence goes on")
    func sameConditionsInAnotherOrder() async throws {
        let json = [("Content-Type", "application/json")]
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        try await Self.recordAndReplay(
            [
                Step(method: "GET", target: "/echo/order?a=1&b=2"),
                Step(method: "GET", target: "/echo/order?b=2&a=1"),
                Step(method: "POST", target: "/echo/order", headers: json, body: Array(#"{"a": 1, "b": [2]}"#.utf8)),
                Step(method: "POST", target: "/echo/order", headers: json, body: Array(#"{"b": [2.0], "a": 1}"#.utf8)),
                Step(method: "POST", target: "/echo/order", headers: form, body: Array("a=1&b=2".utf8)),
                Step(method: "POST", target: "/echo/order", headers: form, body: Array("b=2&a=1".utf8)),
            ], summary: "recorded 2 exchanges, 6 responses into recorded"
        ) { recorded in
            let get = try Self.text(recorded, "echo/order/GET/configuration.json")
            #expect(get.components(separatedBy: #""when""#).count == 2, "one variant: \(get)")
            let post = try Self.text(recorded, "echo/order/POST/configuration.json")
            #expect(post.components(separatedBy: #""when""#).count == 3, "two variants: \(post)")
        }
    }

    @Test("a repeated answer is written when a different one follows: A, A, B replays as A, A, B")
    func repeatsBeforeADifferentAnswer() async throws {
        try await Self.recordAndReplay(
            Array(repeating: Step(method: "GET", target: "/abc"), count: 4),
            summary: "recorded 1 exchange, 3 responses into recorded"
        ) { recorded in
            let configuration = try Self.text(recorded, "abc/GET/configuration.json")
            #expect(configuration.components(separatedBy: "response_file").count == 4, "A, A, B: \(configuration)")
        }
    }

    @Test(
        "If-None-Match is a condition: 200, 304, 200 replay in any order; a plain GET recorded alone has no condition"
    )
    func conditionalRequests() async throws {
        let plain = Step(method: "GET", target: "/etag")
        let conditional = Step(method: "GET", target: "/etag", headers: [("If-None-Match", #""v1""#)])
        try await Self.recordAndReplay(
            [plain, conditional, plain, Step(method: "GET", target: "/json")], replaying: [1, 0, 1, 2, 3]
        ) { recorded in
            let etag = try Self.text(recorded, "etag/GET/configuration.json")
            #expect(
                etag.contains(#""If-None-Match": "\"v1\"""#) && etag.contains(#""present": false"#), "\(etag)")
            let json = try Self.text(recorded, "json/GET/configuration.json")
            #expect(!json.contains("when"), "a plain GET recorded alone has no condition: \(json)")
        }
    }

    @Test("Range is a condition: three plain GETs and three Range requests replay as 200 and 206, in any order")
    func rangeRequests() async throws {
        let plain = Step(method: "GET", target: "/range")
        let range = Step(method: "GET", target: "/range", headers: [("Range", "bytes=2-4")])
        try await Self.recordAndReplay(
            [plain, plain, plain, range, range, range], replaying: [0, 1, 2, 3, 4, 5, 3, 0, 4, 1])
    }

    @Test(
        "folders are named as the path is where the loader reads them so (get/GET/, post/POST/), and carry $schema"
    )
    func readableFolders() async throws {
        try await Self.recordAndReplay(
            [
                Step(method: "GET", target: "/get?x=1"),
                Step(
                    method: "POST", target: "/post", headers: [("Content-Type", "text/plain")], body: Array("hi".utf8)),
                Step(method: "GET", target: "/echo/delete"),
                Step(method: "GET", target: "/echo/Get/options"),
                Step(method: "GET", target: "/echo/GET"),
                Step(method: "GET", target: "/echo"),
            ]
        ) { recorded in
            let files = Set(try FileManager.default.subpathsOfDirectory(atPath: recorded.path))
            for expected in [
                "get/GET/configuration.json", "post/POST/configuration.json", "echo/delete/GET/configuration.json",
                "echo/Get/options/GET/configuration.json", "echo/%47ET/GET/configuration.json",
                "echo/GET/configuration.json",
            ] {
                #expect(files.contains(expected), "\(expected) is not in \(files.sorted())")
                let configuration = try Self.text(recorded, expected)
                #expect(
                    configuration.hasPrefix("{\n  \"$schema\": \"file://")
                        && configuration.contains("exchange-configuration.schema.json"),
                    "\(expected): \(configuration)")
            }
        }
    }

    @Test("--keep-header writes a response header as it is; a Set-Cookie otherwise keeps its name and attributes")
    func keptAndRedactedCookies() async throws {
        try await Self.recordAndReplay(
            [Step(method: "GET", target: "/cookie")], ["--keep-header", "Set-Cookie"]
        ) { recorded in
            let cookie = try Self.text(recorded, "cookie/GET/configuration.json")
            #expect(cookie.contains(#""Set-Cookie": "session=upstream-secret; Path=/""#), "\(cookie)")
            #expect(!cookie.contains("when"), "--keep-header makes no condition: \(cookie)")
        }
    }
}
