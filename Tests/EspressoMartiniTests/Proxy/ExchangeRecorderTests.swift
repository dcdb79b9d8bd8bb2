@testable import EspressoMartini
import EspressoMartiniJansson
import Foundation
import Testing

/// `ExchangeRecorder`: forwarded requests and their answers written into a tree that loads without an error
/// or a warning, and that answers each recorded request with its own answer.
@Suite struct ExchangeRecorderTests {
    /// A recording into `$TMP/exchanges` (with `files` written there first).
    final class Recording {
        let root: String
        let recorder: ExchangeRecorder
        var folder: String { root + "/exchanges" }

        init(root: String, options: RecordingOptions = RecordingOptions()) {
            self.root = root
            recorder = ExchangeRecorder(requestsFolder: root + "/exchanges", options: options, parser: JanssonParser())
        }

        /// Records `method path?query` answered with `status`, `headers` and `body` (written to a scratch file
        /// as the server does; nil: no body).
        @discardableResult
        func record(
            _ method: HTTPMethod, _ target: String, requestHeaders: [HTTPHeader] = [], requestBody: String? = nil,
            status: Int = 200,
            headers: [HTTPHeader] = [HTTPHeader(name: "Content-Type", value: "application/json")], body: String? = "{}",
            decoded: Bool = false
        ) throws -> ExchangeRecorder.Outcome {
            var file: String?
            if let body {
                file = root + "/scratch-\(UUID().uuidString)"
                _ = FileManager.default.createFile(atPath: file!, contents: Data(body.utf8))
            }
            let request = RequestTarget(target)
            let bytes = requestBody.map { Array($0.utf8) }
            return try recorder.record(
                RecordedExchange(
                    method: method, path: request.path, rawQuery: request.rawQuery, requestHeaders: requestHeaders,
                    requestBody: bytes,
                    requestBodySize: bytes?.count ?? 0, statusCode: status, responseHeaders: headers,
                    responseBodyFile: file, contentDecoded: decoded
                ))
        }

        /// The tree as the server loads it; no diagnostic is expected.
        func tree() throws -> ServingTree {
            let (tree, diagnostics) = TreeLoader(parser: JanssonParser()).load(folder: folder)
            #expect(LoaderFixture.descriptions(diagnostics, root: root) == [])
            return ServingTree(try #require(tree), counters: CallCounters(), configuration: ServerConfiguration())
        }

        /// The body of the answer the tree gives now (its first response), for a request.
        func answer(
            _ method: String, _ target: String, headers: [HTTPHeader] = [], body: String? = nil
        ) throws -> String {
            let tree = try tree()
            let request = RequestTarget(target)
            let decider = Decider(configuration: ServerConfiguration(), admin: nil, parser: JanssonParser())
            switch decider.decide(
                Request(
                    method: method, path: request.path, rawQuery: request.rawQuery, headers: RequestHeaders(headers),
                    body: body.map { Array($0.utf8) }), tree: tree)
            {
            case .prebuilt(let answer):
                guard case .file(let name, let resolved, _) = answer.response.content?.body else {
                    return "status \(answer.statusCode)"
                }
                let path = tree.exchangeTree.path(ofFile: name, at: resolved, in: answer.exchange)
                return String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            case .generated(let made): return "\(made.statusCode)"
            default: return "?"
            }
        }

        func text(_ relative: String) -> String {
            String(decoding: FileManager.default.contents(atPath: folder + "/" + relative) ?? Data(), as: UTF8.self)
        }
    }

    func recording(
        _ files: [String: String] = [:], options: RecordingOptions = RecordingOptions(),
        _ body: (Recording) throws -> Void
    ) throws {
        try withTemporaryFolder(
            FolderFixture(
                files: files.reduce(into: [:]) { $0["exchanges/" + $1.key] = $1.value }, folders: ["exchanges"])
        ) { root in
            try body(Recording(root: root, options: options))
        }
    }

    @Test func eachRequestIsAVariantWithItsOwnConditionsAndTheLessSpecificComesLast() throws {
        try recording { recording in
            try recording.record(.get, "/users", body: #"{"all": true}"#)
            try recording.record(.get, "/users?page=2", body: #"{"page": 2}"#)
            try recording.record(.get, "/users?page=2&sort=name", body: #"{"page": 2, "sorted": true}"#)
            try recording.record(
                .post, "/users", requestHeaders: [HTTPHeader(name: "Content-Type", value: "application/json")],
                requestBody: #"{"name": "ada"}"#, body: #"{"id": 7}"#)
            try recording.record(
                .post, "/users",
                requestHeaders: [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                requestBody: "name=bob&x=1", body: #"{"id": 8}"#)
            try recording.record(.post, "/users", requestBody: "plain", body: #"{"id": 9}"#)
            #expect(try recording.answer("GET", "/users") == #"{"all": true}"#)
            #expect(try recording.answer("GET", "/users?page=2") == #"{"page": 2}"#)
            #expect(try recording.answer("GET", "/users?sort=name&page=2") == #"{"page": 2, "sorted": true}"#)
            #expect(try recording.answer("POST", "/users", body: #"{ "name" : "ada" }"#) == #"{"id": 7}"#)
            #expect(
                try recording.answer(
                    "POST", "/users",
                    headers: [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                    body: "x=1&name=bob") == #"{"id": 8}"#)
            #expect(try recording.answer("POST", "/users", body: "plain") == #"{"id": 9}"#)
            #expect(
                try recording.answer("POST", "/users", body: "other") == "404", "no fallback: another body is a miss")
            let post = recording.text("users/POST/configuration.json")
            #expect(
                post.contains(#""json": {"#) && post.contains(#""equals": {"#) && post.contains(#""form": {"#)
                    && post.contains(#""body": "plain""#), "\(post)")
        }
    }

    @Test func anIdenticalRequestAppendsItsAnswerUnlessItIsTheSameAsTheLast() throws {
        try recording { recording in
            #expect(
                try recording.record(.get, "/counter", body: "1") == .added(folder: "counter/GET", newExchange: true))
            #expect(
                try recording.record(.get, "/counter", body: "2") == .added(folder: "counter/GET", newExchange: false))
            #expect(try recording.record(.get, "/counter", body: "2") == .unchanged(folder: "counter/GET"))
            #expect(
                try recording.record(.get, "/counter", status: 500, body: "2")
                    == .added(folder: "counter/GET", newExchange: false))
            let configuration = recording.text("counter/GET/configuration.json")
            #expect(configuration.contains(#""sequence": "repeat_last""#))
            #expect(
                (try FileManager.default.contentsOfDirectory(atPath: recording.folder + "/counter/GET")).sorted() == [
                    "configuration.json", "response-1.json", "response-2.json",
                ], "one file per distinct body")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: recording.root).filter { $0.hasPrefix("scratch-") }
                    == [], "a body not written is removed")
            _ = try recording.tree()
        }
    }

    @Test func repeatsFirstKeepsTheFirstAnswer() throws {
        try recording(options: RecordingOptions(repeats: .first)) { recording in
            try recording.record(.get, "/counter", body: "1")
            #expect(try recording.record(.get, "/counter", body: "2") == .unchanged(folder: "counter/GET"))
            #expect(try recording.answer("GET", "/counter") == "1")
        }
    }

    @Test func headersWrittenLeaveOutDateLengthHopByHopAndADecodedEncodingAndHideCredentials() throws {
        try recording(options: RecordingOptions(matchHeaders: ["X-Client"], redactedHeaders: ["X-Token"])) {
            recording in
            try recording.record(
                .get, "/h", requestHeaders: [HTTPHeader(name: "Authorization", value: "Bearer secret")],
                headers: [
                    HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "Date", value: "Mon"),
                    HTTPHeader(name: "Content-Length", value: "2"), HTTPHeader(name: "Connection", value: "X-Hop"),
                    HTTPHeader(name: "X-Hop", value: "1"),
                    HTTPHeader(name: "Keep-Alive", value: "timeout=5"),
                    HTTPHeader(name: "Content-Encoding", value: "gzip"),
                    HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "Set-Cookie", value: "b=2"),
                    HTTPHeader(name: "X-Token", value: "t"),
                    HTTPHeader(name: "X-Kept", value: "yes"),
                ], decoded: true)
            let configuration = recording.text("h/GET/configuration.json")
            for absent in [
                "Date", "Content-Length", "Connection", "X-Hop", "Keep-Alive", "Content-Encoding", "secret", "a=1",
                "Authorization",
            ] {
                #expect(!configuration.contains(absent), "\(absent) was written: \(configuration)")
            }
            #expect(configuration.contains(#""X-Token": "REDACTED""#) && configuration.contains(#""X-Kept": "yes""#))
            #expect(
                configuration.contains(#""Set-Cookie": ["#) && configuration.contains(#""X-Client": {"#),
                "\(configuration)")
            #expect(
                try recording.answer("GET", "/h", headers: [HTTPHeader(name: "X-Client", value: "any")]) == "404",
                "the header must be absent, as it was")
            #expect(try recording.answer("GET", "/h") == "{}")
        }
    }

    @Test func anEncodingThatWasNotDecodedIsKept() throws {
        try recording { recording in
            try recording.record(
                .get, "/z", headers: [HTTPHeader(name: "Content-Encoding", value: "zstd")], body: "\u{28}\u{B5}")
            #expect(recording.text("z/GET/configuration.json").contains(#""Content-Encoding": "zstd""#))
            #expect(recording.text("z/GET/response-1.bin") == "\u{28}\u{B5}")
        }
    }

    @Test func aPersonsExchangeIsKeptAndAnswersWhatTheRecordingDoesNot() throws {
        let files = [
            "plain/GET/configuration.json":
                #"{"$schema": "x", "template": true, "body": "hello {{request.query}}", "delay": 0}"#,
            "hand/GET/configuration.json":
                #"{"variants": [{"when": {"headers": {"X-A": {"regex": "a+"}}}, "responses": {"body": "by hand", "delay": 0}}]}"#,
            "hand/GET/response-4.json": "kept",
        ]
        try recording(files) { recording in
            try recording.record(.get, "/plain?x=1", body: "recorded")
            try recording.record(.get, "/hand", body: "recorded hand")
            #expect(try recording.answer("GET", "/plain?x=1") == "recorded")
            #expect(try recording.answer("GET", "/plain?x=2") == "?", "the template still answers the rest")
            #expect(try recording.answer("GET", "/hand") == "recorded hand")
            let hand = recording.text("hand/GET/configuration.json")
            #expect(
                hand.contains(#""regex": "a+""#) && hand.contains("response-5.json"),
                "numbered after the files kept: \(hand)")
            #expect(recording.text("hand/GET/response-4.json") == "kept")
            let plain = recording.text("plain/GET/configuration.json")
            #expect(plain.contains(#""template": true"#) && plain.contains(#""delay": 0"#))
        }
    }

    @Test func noBodyIsWrittenFor204AndAConfigurationThatDoesNotParseIsLeftAlone() throws {
        try recording(["broken/GET/configuration.json": "{"]) { recording in
            try recording.record(.get, "/empty", status: 204, body: "ignored")
            #expect(
                (try FileManager.default.contentsOfDirectory(atPath: recording.folder + "/empty/GET")) == [
                    "configuration.json"
                ])
            #expect(throws: TreeWritingError.self) { try recording.record(.get, "/broken") }
            #expect(recording.text("broken/GET/configuration.json") == "{")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: recording.root).filter { $0.hasPrefix("scratch-") }
                    == [])
        }
    }
}
