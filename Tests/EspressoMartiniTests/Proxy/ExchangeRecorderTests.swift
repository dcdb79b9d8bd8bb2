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

        init(root: String, options: RecordingOptions = RecordingOptions(), schema: String? = nil) {
            self.root = root
            recorder = ExchangeRecorder(
                requestsFolder: root + "/exchanges", schema: schema, options: options, parser: JanssonParser())
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
            try answer(method, target, headers: headers, body: body, from: try tree())
        }

        /// The bodies of the answers one tree gives to `requests` (method, target, headers) one after the
        /// other, its counters moving.
        func replay(_ requests: [(String, String, [HTTPHeader])]) throws -> [String] {
            let tree = try tree()
            return try requests.map { try answer($0.0, $0.1, headers: $0.2, body: nil, from: tree) }
        }

        private func answer(
            _ method: String, _ target: String, headers: [HTTPHeader], body: String?, from tree: ServingTree
        ) throws -> String {
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
        _ files: [String: String] = [:], folders: [String] = [], options: RecordingOptions = RecordingOptions(),
        schema: String? = nil, _ body: (Recording) throws -> Void
    ) throws {
        try withTemporaryFolder(
            FolderFixture(
                files: files.reduce(into: [:]) { $0["exchanges/" + $1.key] = $1.value },
                folders: ["exchanges"] + folders.map { "exchanges/" + $0 })
        ) { root in
            try body(Recording(root: root, options: options, schema: schema))
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

    @Test func anIdenticalRequestAppendsItsAnswerAndARepeatIsHeldUntilADifferentAnswerFollows() throws {
        try recording { recording in
            #expect(
                try recording.record(.get, "/counter", body: "1") == .added(folder: "counter/GET", newExchange: true))
            #expect(
                try recording.record(.get, "/counter", body: "2") == .added(folder: "counter/GET", newExchange: false))
            #expect(try recording.record(.get, "/counter", body: "2") == .unchanged(folder: "counter/GET"))
            #expect(try recording.record(.get, "/counter", body: "2") == .unchanged(folder: "counter/GET"))
            #expect(
                try recording.record(.get, "/counter", status: 500, body: "2")
                    == .added(folder: "counter/GET", newExchange: false, responses: 3), "the two repeats held, then 500"
            )
            #expect(try recording.record(.get, "/counter", status: 500, body: "2") == .unchanged(folder: "counter/GET"))
            let configuration = recording.text("counter/GET/configuration.json")
            #expect(configuration.contains(#""sequence": "repeat_last""#))
            #expect(
                configuration.components(separatedBy: "status_code").count == 6, "1, 2, 2, 2, 500: \(configuration)")
            let counter = ("GET", "/counter", [HTTPHeader]())
            #expect(try recording.replay(Array(repeating: counter, count: 6)) == ["1", "2", "2", "2", "2", "2"])
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

    @Test func answersABAreReplayedInOrderAndARepeatOfAnotherVariantIsHeldApart() throws {
        try recording { recording in
            for body in ["A", "A", "B"] { try recording.record(.get, "/abc", body: body) }
            try recording.record(.get, "/abc?x=1", body: "X")
            try recording.record(.get, "/abc?x=1", body: "X")
            try recording.record(.get, "/abc?x=1", body: "Y")
            let abc = ("GET", "/abc", [HTTPHeader]())
            let x = ("GET", "/abc?x=1", [HTTPHeader]())
            #expect(try recording.replay([abc, x, abc, x, abc, x, abc]) == ["A", "X", "A", "X", "B", "Y", "B"])
        }
    }

    @Test func theSameConditionsInAnotherOrderAreTheSameVariant() throws {
        let json = [HTTPHeader(name: "Content-Type", value: "application/json")]
        let form = [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")]
        try recording { recording in
            try recording.record(.get, "/q?a=1&b=2", body: "first")
            #expect(
                try recording.record(.get, "/q?b=2&a=1", body: "second")
                    == .added(folder: "q/GET", newExchange: false))
            try recording.record(
                .post, "/q", requestHeaders: json, requestBody: #"{"a": 1, "b": {"c": [1]}}"#, body: "j1")
            try recording.record(
                .post, "/q", requestHeaders: json, requestBody: #"{"b": {"c": [1.0]}, "a": 1}"#, body: "j2")
            try recording.record(.post, "/q", requestHeaders: form, requestBody: "a=1&b=2", body: "f1")
            try recording.record(.post, "/q", requestHeaders: form, requestBody: "b=2&a=1", body: "f2")
            #expect(recording.text("q/GET/configuration.json").components(separatedBy: #""when""#).count == 2)
            #expect(recording.text("q/POST/configuration.json").components(separatedBy: #""when""#).count == 3)
            #expect(
                try recording.replay([("GET", "/q?a=1&b=2", []), ("GET", "/q?b=2&a=1", [])]) == ["first", "second"])
            #expect(try recording.answer("POST", "/q", body: #"{"a": 1, "b": {"c": [1]}}"#) == "j1")
            #expect(try recording.answer("POST", "/q", headers: form, body: "a=1&b=2") == "f1")
        }
    }

    @Test func conditionalHeadersAreConditionsAndTheirAbsenceOnceTheExchangeHasThem() throws {
        let etag = [HTTPHeader(name: "ETag", value: #""v1""#)]
        let revalidate = [HTTPHeader(name: "If-None-Match", value: #""v1""#)]
        try recording { recording in
            try recording.record(.get, "/alone", body: "plain")
            #expect(!recording.text("alone/GET/configuration.json").contains("when"), "no condition for a plain GET")
            try recording.record(.get, "/e", headers: etag, body: "full")
            try recording.record(.get, "/e?page=2", headers: etag, body: "page 2")
            try recording.record(.get, "/e", requestHeaders: revalidate, status: 304, headers: etag, body: nil)
            try recording.record(.get, "/e", headers: etag, body: "full")
            try recording.record(
                .get, "/e", requestHeaders: [HTTPHeader(name: "Range", value: "bytes=0-1")], body: "fu")
            let configuration = recording.text("e/GET/configuration.json")
            #expect(
                configuration.components(separatedBy: #""If-None-Match": {"#).count == 4
                    && configuration.components(separatedBy: #""Range": {"#).count == 4, "\(configuration)")
            #expect(
                try recording.replay([
                    ("GET", "/e", revalidate), ("GET", "/e", []), ("GET", "/e?page=2", []), ("GET", "/e", revalidate),
                    ("GET", "/e", [HTTPHeader(name: "Range", value: "bytes=0-1")]), ("GET", "/e", []),
                ]) == ["status 304", "full", "page 2", "status 304", "fu", "full"])
            #expect(
                try recording.answer("GET", "/e", headers: [HTTPHeader(name: "If-None-Match", value: #""v0""#)])
                    == "404", "another entity tag is another request")
        }
    }

    @Test func aMethodNamedSegmentIsWrittenAsItIsWhereTheLoaderReadsItAsAPathComponent() throws {
        let files = [
            "hand/get/configuration.json": #"{"body": "by hand"}"#,
            "old/%67et/GET/configuration.json": #"{"body": "recorded before"}"#,
        ]
        try recording(files, folders: ["empty/post"], schema: "file:///schemas/exchange.json") { recording in
            for target in [
                "/get", "/x/get", "/GET", "/", "/delete/y", "/Post", "/hand/get", "/old/get?x=1", "/empty/post",
            ] {
                try recording.record(.get, target, body: target)
            }
            try recording.record(.post, "/post", body: "post")
            let files = Set(try FileManager.default.subpathsOfDirectory(atPath: recording.folder))
            for expected in [
                "get/GET", "x/get/GET", "%47ET/GET", "GET", "delete/y/GET", "Post/GET", "post/POST", "hand/%67et/GET",
                "old/%67et/GET", "empty/%70ost/GET",
            ] {
                #expect(files.contains(expected + "/configuration.json"), "\(expected) is not in \(files.sorted())")
            }
            #expect(!files.contains("old/get"), "one folder per segment")
            #expect(
                recording.text("get/GET/configuration.json").hasPrefix(
                    "{\n  \"$schema\": \"file:///schemas/exchange.json\","))
            for target in [
                "/get", "/x/get", "/GET", "/", "/delete/y", "/Post", "/hand/get", "/old/get?x=1", "/empty/post",
            ] {
                #expect(try recording.answer("GET", target) == target)
            }
            #expect(try recording.answer("POST", "/post") == "post")
            #expect(
                try recording.answer("GET", "/hand") == "status 200",
                "the person's lowercase method folder still answers")
            #expect(try recording.answer("GET", "/old/get") == "status 200", "the exchange kept answers the rest")
            #expect(try recording.answer("POST", "/empty") == "status 200", "the person's empty method folder")
        }
    }

    @Test(arguments: [
        ("session=abc; Path=/; HttpOnly", "session=REDACTED; Path=/; HttpOnly"), ("id=", "id=REDACTED"),
        ("token", "REDACTED"), ("=x; Max-Age=60", "REDACTED; Max-Age=60"),
    ])
    func aRedactedCookieKeepsItsNameAndAttributes(_ value: String, _ written: String) {
        #expect(RecordedExchange.redactedCookie(value) == written)
    }

    @Test func keptHeadersAreWrittenAsTheyAreUnlessRedacted() throws {
        try recording(options: RecordingOptions(redactedHeaders: ["X-Token"], keptHeaders: ["set-cookie", "X-Token"])) {
            recording in
            try recording.record(
                .get, "/k",
                headers: [
                    HTTPHeader(name: "Set-Cookie", value: "session=abc; Path=/"),
                    HTTPHeader(name: "X-Token", value: "t"),
                ])
            let configuration = recording.text("k/GET/configuration.json")
            #expect(
                configuration.contains(#""Set-Cookie": "session=abc; Path=/""#)
                    && configuration.contains(#""X-Token": "REDACTED""#) && !configuration.contains("when"),
                "\(configuration)")
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
                configuration.contains(#""Set-Cookie": ["#) && configuration.contains(#""a=REDACTED","#)
                    && configuration.contains(#""b=REDACTED""#)
                    && configuration.contains(#""X-Client": {"#),
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
