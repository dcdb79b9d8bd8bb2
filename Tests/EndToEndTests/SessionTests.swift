import Foundation
import Testing

/// doc/faults-and-sessions.md sessions: parallel test runs on one server, each with its own counters, journal part and cache.
@Suite("sessions")
struct SessionTests {
    static let header = "X-Espressomartini-Session"
    static let exchanges: [String: TreeEntry] = [
        "job/GET/configuration.json": """
        [{"status_code": 201, "body": "first"}, {"status_code": 202, "body": "second"}, {"status_code": 203, "body": "third"}]
        """
    ]

    @Test("two test runs in parallel, 100 requests each: each sees its sequence from the start, exactly")
    func twoRunsInParallel() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        async let runA = ParallelRequests.start(
            100, client: server.client, target: "/job", headers: [(Self.header, "run-a")])
        async let runB = ParallelRequests.start(
            100, client: server.client, target: "/job", headers: [(Self.header, "run-b")])
        for batch in try await [runA, runB] {
            var counts: [String: Int] = [:]
            for result in try await batch.results() { counts[try result.get().text, default: 0] += 1 }
            #expect(counts == ["first": 1, "second": 1, "third": 98])
        }
        #expect(try await server.client.get("/job").text == "first", "the default session is untouched")
        let exchanges = try await server.client.get("/__espressomartini/exchanges?session=run-a").text
        #expect(exchanges.contains(#""calls":100"#), "\(exchanges)")
        #expect(try await server.client.send("POST", "/__espressomartini/reset?session=run-a").statusCode == 204)
        #expect(try await server.client.get("/job", headers: [(Self.header, "run-a")]).text == "first")
        #expect(try await server.client.get("/job", headers: [(Self.header, "run-b")]).text == "third")
        let journal = try await server.client.get("/__espressomartini/requests?session=run-b").text
        #expect(journal.components(separatedBy: #""session":"run-b""#).count - 1 == 101, "run-b's 101 requests")
        #expect(!journal.contains("run-a"))
    }

    @Test(
        "the header name comes from session_header; an empty value is the default session",
        arguments: [
            ("", "first"),
            ("   ", "first"),
        ])
    func configuredHeaderAndEmptyValue(_ value: String, _ expected: String) async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"session_header": "X-Test-Run"}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/job", headers: [("x-test-run", "mine")]).text == "first")
        #expect(
            try await server.client.get("/job", headers: [(Self.header, "ignored")]).text == "first",
            "the default header name is not read")
        #expect(
            try await server.client.get("/job", headers: [("X-Test-Run", value)]).text == "second",
            "the default session's second call")
        #expect(try await server.client.get("/job", headers: [("X-Test-Run", "mine")]).text == "second")
    }

    @Test(
        "a 10 KiB or binary session name is answered 400; the server answers on",
        arguments: [
            String(repeating: "s", count: 10 * 1024),
            "bin\u{1}ary",
        ])
    func refusedNames(_ value: String) async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let refused = try await server.client.get("/job", headers: [(Self.header, value)])
        #expect(refused.statusCode == 400, "\(refused.text)")
        #expect(refused.text.contains("cannot name a session"), "\(refused.text)")
        #expect(try await server.client.get("/job").text == "first", "a refused request moves no counter")
    }

    @Test("max_sessions bounds the sessions kept: the least recently used is forgotten")
    func boundedSessions() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"max_sessions": 3}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let get = { (session: String) in try await server.client.get("/job", headers: [(Self.header, session)]).text }
        #expect(try await get("a") == "first")
        for number in 0..<50 { _ = try await get("other-\(number)") }
        #expect(try await get("a") == "first", "session a was forgotten and starts again")
        #expect(try await get("other-49") == "second", "a recent session is kept")
    }

    @Test("a session's counters survive a reload")
    func countersSurviveReload() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/job", headers: [(Self.header, "kept")]).text == "first")
        #expect(try await server.client.send("POST", "/__espressomartini/reload").statusCode == 200)
        #expect(try await server.client.get("/job", headers: [(Self.header, "kept")]).text == "second")
    }
}
