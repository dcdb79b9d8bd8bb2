@testable import EspressoMartini
import EspressoMartiniJansson
import Testing

/// With a proxy, what the tree has no answer for is a `Decision.forward`; everything else is decided as
/// without one. The admin API's access rule, and the journal's redaction of credentials.
@Suite struct ForwardDecisionTests {
    static let files = [
        "users/GET/configuration.json": #"{"body": "users"}"#,
        "pages/GET/configuration.json":
            #"{"variants": [{"when": {"query": {"page": "1"}}, "responses": {"body": "page 1"}}]}"#,
        "once/GET/configuration.json": #"{"responses": {"body": "once"}, "sequence": "once"}"#,
    ]

    static func fixture(records: Bool = false, everything: Bool = false, cors: Bool = false) throws -> DeciderFixture {
        var configuration = ServerConfiguration()
        var proxy = ProxyConfiguration(target: try ProxyTarget.parse("https://api.example.com").get())
        proxy.records = records
        if everything { proxy.forwards = .everything }
        configuration.proxy = proxy
        configuration.cors = cors
        return try DeciderFixture(files: files, configuration: configuration)
    }

    @Test(arguments: [
        ("GET", "/users", "200 users"),
        ("GET", "/nowhere", "forward to https://api.example.com"),
        ("DELETE", "/users", "forward to https://api.example.com"),
        ("GET", "/pages?page=2", "forward to https://api.example.com"),
        ("GET", "/pages?page=1", "200 page 1"),
        ("GET", "/users/../x", "400"),
        ("GET", "/__espressomartini/health", "admin 200"),
    ])
    func theTreeWinsAndMissesAreForwarded(_ method: String, _ target: String, _ expected: String) throws {
        let decision = try Self.fixture().decide(method, target)
        let summary: String
        switch decision {
        case .prebuilt(let answer):
            summary =
                "\(answer.statusCode) \(String(decoding: answer.response.content!.body.inlineBytes, as: UTF8.self))"
        case .generated(let made): summary = "\(made.statusCode)"
        case .admin(let made): summary = "admin \(made.statusCode)"
        default: summary = decision.summary
        }
        #expect(summary == expected)
    }

    @Test func aSequenceOverIsTheTreesAnswerAndACORSPreflightTheServers() throws {
        let fixture = try Self.fixture(cors: true)
        _ = fixture.decide("GET", "/once")
        #expect(fixture.decide("GET", "/once").statusCode == 410)
        let preflight = fixture.decide(
            "OPTIONS", "/users",
            headers: [
                HTTPHeader(name: "Origin", value: "https://app.example"),
                HTTPHeader(name: "Access-Control-Request-Method", value: "GET"),
            ])
        #expect(preflight.statusCode == 204)
    }

    @Test func recordingForwardsEverythingButTheAdminAPI() throws {
        let fixture = try Self.fixture(records: true, everything: true)
        #expect(fixture.decide("GET", "/users").summary == "forward to https://api.example.com, recorded")
        #expect(fixture.decide("GET", "/__espressomartini/health").isAdmin)
        let journal = fixture.journal.entries
        #expect(journal.map(\.proxied) == [true])
        #expect(journal.first?.status == nil, "the target's status is known only once it answers")
    }

    @Test func explainSaysWhereAMissGoes() throws {
        let fixture = try Self.fixture()
        let explanation = Explanation(
            explaining: Request(method: "GET", path: "/pages", rawQuery: "page=3"), in: fixture.service.tree,
            decider: fixture.decider)
        #expect(
            explanation.text.contains(
                "answer:   forwarded to https://api.example.com, as the tree has no answer: 404, no variant of GET /pages holds\n"
            ))
        #expect(
            explanation.text.contains("  1 when query page=1: fails: query \"page\" is \"3\", expected \"1\"\n"),
            "\(explanation.text)")
        #expect(!explanation.isAnswered && explanation.statusCode == nil)
    }

    @Test(
        arguments: [
            (AdminAccess.loopback, nil as String?, "127.0.0.1", [], 200),
            (.loopback, nil, "192.0.2.7", [], 403),
            (.loopback, nil, nil, [], 403),
            (.any, nil, "192.0.2.7", [], 200),
            (.loopback, "t", "127.0.0.1", [], 401),
            (.loopback, "t", "192.0.2.7", ["Bearer t"], 200),
            (.any, "t", "192.0.2.7", ["Bearer u"], 401),
            (.loopback, "t", "127.0.0.1", ["bEaReR t"], 200),
            (.loopback, "t", "127.0.0.1", ["Bearer t", "Bearer t"], 401),
        ] as [(AdminAccess, String?, String?, [String], UInt32)])
    func adminAccess(
        _ access: AdminAccess, _ token: String?, _ client: String?, _ authorization: [String], _ status: UInt32
    ) throws {
        var configuration = ServerConfiguration()
        configuration.adminAccess = access
        configuration.adminToken = token
        let fixture = try DeciderFixture(files: Self.files, configuration: configuration)
        let address = client.map { ClientAddress(text: $0, isLoopback: $0.hasPrefix("127.")) }
        let decision = fixture.decide(
            "GET", "/__espressomartini/health",
            headers: authorization.map { HTTPHeader(name: "Authorization", value: $0) }, client: address)
        #expect(decision.statusCode == status, "\(decision.summary)")
    }

    @Test func theJournalShowsCredentialsAsRedactedWithAProxy() {
        let journal = RequestJournal(redactsCredentials: true)
        let headers = [
            "Authorization", "proxy-authorization", "Cookie", "Set-Cookie", "X-Kept", "Cookies", "X-Authorization",
        ].map { HTTPHeader(name: $0, value: "secret") }
        journal.record(
            Request(method: "GET", path: "/", headers: RequestHeaders(headers)),
            answeredBy: .generated(.empty(204, globalHeaders: [])), body: [], bodySize: 0)
        #expect(
            journal.entries.first?.headers.map(\.value) == [
                "REDACTED", "REDACTED", "REDACTED", "REDACTED", "secret", "secret", "secret",
            ])
    }
}
