import Dispatch
import EspressoMartini
import Foundation
import Testing

/// Runtime exchanges as decisions (doc/admin-api.md): read by the loader's code, the precedence over the
/// tree, their own counters, ids, and changes made while other threads decide (run under the thread
/// sanitizer by `make test`).
@Suite struct RuntimeExchangeDecisionTests {
    static let tree = [
        "users/{id}/GET/configuration.json": #"[{"body": "tree 1"}, {"body": "tree 2"}]"#,
        "users/me/GET/configuration.json": #"{"body": "me"}"#,
        "assets/logo.txt": "logo",
    ]

    static func add(_ fixture: DeciderFixture, _ body: String, session: String? = nil) -> TreeService.RuntimeAddition {
        fixture.service.addRuntimeExchange(Array(body.utf8), session: session)
    }

    static func body(_ decision: Decision) -> String {
        guard let answer = decision.exchangeAnswer, case .inline(let value)? = answer.response.content?.body else {
            return decision.summary
        }
        if case .string(let text) = value { return text }
        return value.compactText
    }

    @Test func precedenceOverEveryTree() throws {
        try DeciderFixture.withRequestsFolder(files: Self.tree) { fixture in
            _ = Self.add(fixture, #"{"method": "GET", "route": "/users/:uid", "configuration": {"body": "everyone"}}"#)
            _ = Self.add(
                fixture, #"{"method": "GET", "route": "/users/*", "configuration": {"body": "a"}}"#, session: "a")
            _ = Self.add(
                fixture, #"{"method": "GET", "route": "/users/**", "configuration": {"body": "deep"}}"#, session: "a")
            #expect(Self.body(fixture.decide("GET", "/users/7")) == "everyone")
            #expect(Self.body(fixture.decide("GET", "/users/7", session: "a")) == "a")
            #expect(Self.body(fixture.decide("GET", "/users/me", session: "a")) == "me", "a literal of the tree wins")
            #expect(Self.body(fixture.decide("GET", "/users/7/posts", session: "a")) == "deep")
            #expect(fixture.decide("GET", "/users/7/posts").statusCode == 404)
        }
    }

    @Test func theNewestOfOneScopeForTheSameRequestsAnswers() throws {
        try DeciderFixture.withRequestsFolder(files: Self.tree) { fixture in
            _ = Self.add(fixture, #"{"method": "GET", "route": "/x/{a}", "configuration": {"body": "old"}}"#)
            _ = Self.add(fixture, #"{"method": "GET", "route": "/x/:b", "configuration": {"body": "new"}}"#)
            #expect(Self.body(fixture.decide("GET", "/x/1")) == "new")
            #expect(fixture.service.removeRuntimeExchange(id: 2))
            #expect(Self.body(fixture.decide("GET", "/x/1")) == "old")
        }
    }

    @Test func idsAreNeverReusedAndARemovedExchangesCountersGo() throws {
        try DeciderFixture.withRequestsFolder(files: Self.tree) { fixture in
            let sequence = #"{"method": "GET", "route": "/poll", "configuration": [{"body": "1"}, {"body": "2"}]}"#
            guard case .added(let first, _) = Self.add(fixture, sequence) else { Issue.record("not added"); return }
            #expect(first.id == "r1")
            #expect(Self.body(fixture.decide("GET", "/poll")) == "1")
            #expect(fixture.service.removeRuntimeExchange(id: 1))
            #expect(!fixture.service.removeRuntimeExchange(id: 1))
            guard case .added(let second, _) = Self.add(fixture, sequence) else { Issue.record("not added"); return }
            #expect(second.id == "r2")
            #expect(Self.body(fixture.decide("GET", "/poll")) == "1", "a new exchange starts from its first response")
            #expect(Self.body(fixture.decide("GET", "/users/1")) == "tree 1", "the tree's counter never moved")
        }
    }

    @Test func filesResolveAgainstTheRequestsFolderAndMustStayInside() throws {
        try DeciderFixture.withRequestsFolder(files: Self.tree) { fixture in
            guard
                case .added = Self.add(
                    fixture,
                    #"{"method": "GET", "route": "/logo", "configuration": {"response_file": "assets/logo.txt"}}"#)
            else { Issue.record("not added"); return }
            #expect(fixture.decide("GET", "/logo").statusCode == 200)
            guard
                case .refused(let diagnostics) = Self.add(
                    fixture,
                    #"{"method": "GET", "route": "/out", "configuration": {"response_file": "../../../../../../../../etc/passwd"}}"#
                )
            else { Issue.record("added"); return }
            let error = diagnostics.errors.first?.description ?? ""
            #expect(error.hasPrefix("request body:1:71: error:") && error.contains("outside"), "\(diagnostics.all)")
        }
    }

    @Test func theLimitCountsSessionsToo() throws {
        var configuration = ServerConfiguration()
        configuration.maxRuntimeExchanges = 1
        try DeciderFixture.withRequestsFolder(files: Self.tree, configuration: configuration) { fixture in
            guard case .added = Self.add(fixture, #"{"method": "GET", "route": "/a"}"#, session: "s") else {
                Issue.record("not added"); return
            }
            guard case .full(let limit) = Self.add(fixture, #"{"method": "GET", "route": "/b"}"#) else {
                Issue.record("not refused"); return
            }
            #expect(limit == 1)
        }
    }

    @Test func explainNamesTheRuntimeExchange() throws {
        try DeciderFixture.withRequestsFolder(files: Self.tree) { fixture in
            _ = Self.add(
                fixture, #"{"method": "GET", "route": "/users/:uid", "configuration": {"body": "s"}}"#, session: "a")
            var request = Request(method: "GET", path: "/users/7", rawQuery: "", headers: RequestHeaders([]), body: nil)
            request.session = fixture.service.sessions.session(named: "a")
            request.runtime = fixture.service.served.runtime
            let text = Explanation(explaining: request, in: fixture.service.tree, decider: fixture.decider).text
            #expect(text.contains("source:   runtime exchange r1 (session a)\n"), "\(text)")
            #expect(
                text.contains("/users/{id} (GET): the same requests as /users/:uid, which comes first\n"), "\(text)")
        }
    }

    @Test func verifySaysWhyItDoesNotHold() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/users/7?page=1")
        let verdict = fixture.decide(
            "POST", "/__espressomartini/requests/verify",
            body:
                #"{"method": "GET", "path": "/users/{id}", "when": {"query": {"page": "2"}}, "count": {"at_least": 1}}"#
        )
        #expect(
            verdict.summary == """
                admin 200 {"holds":false,"count":0,"complete":true,"expected":"at least 1",\
                "message":"expected at least 1 requests GET /users/{id} when query page=2, 0 matched; closest: GET /users/7: query \\"page\\" is \\"1\\", expected \\"2\\"",\
                "closest":[{"method":"GET","path":"/users/7","query":"page=1","mismatch":"query \\"page\\" is \\"1\\", expected \\"2\\""}]}
                """)
    }

    /// Threads decide while another adds and removes runtime exchanges: every decision is the tree's answer or
    /// a runtime one, never a failure, and the thread sanitizer sees no race.
    @Test func changesWhileOtherThreadsDecide() throws {
        try DeciderFixture.withRequestsFolder(files: Self.tree) { fixture in
            let outcomes = Outcomes()
            DispatchQueue.concurrentPerform(iterations: 5) { worker in
                if worker == 0 {
                    for round in 0..<200 {
                        _ = Self.add(
                            fixture,
                            #"{"method": "GET", "route": "/users/:uid", "configuration": {"body": "runtime \#(round)"}}"#,
                            session: round % 3 == 0 ? "a" : nil)
                        if round % 4 == 3 { fixture.service.removeRuntimeExchanges(session: nil, allSessions: true) }
                    }
                    return
                }
                for call in 0..<500 {
                    let body = Self.body(fixture.decide("GET", "/users/\(call)", session: worker % 2 == 0 ? "a" : nil))
                    outcomes.note(body)
                }
            }
            let seen = outcomes.all
            #expect(seen.count == 4 * 500)
            #expect(
                seen.allSatisfy { $0.hasPrefix("tree ") || $0.hasPrefix("runtime ") },
                "\(Set(seen).filter { !$0.hasPrefix("runtime") })")
        }
    }
}

/// What the deciding threads saw (an `NSLock`, which the thread sanitizer understands).
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [String] = []

    func note(_ body: String) { lock.withLock { seen.append(body) } }
    var all: [String] { lock.withLock { seen } }
}
