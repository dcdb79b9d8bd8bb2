@testable import EspressoMartini
import Testing

/// `Decider.plan(atHeaders:tree:)`, what the server plans once a request's headers are in, and what the plan
/// refuses before any exchange is looked at: the same refusals the server answers and `explain` reports.
@Suite struct HeadersPlanTests {
    static let files = [
        "hello/GET/configuration.json": #"{"body": "hi"}"#,
        "orders/POST/configuration.json":
            #"{"variants": [{"when": {"json": {"/express": {"equals": true}}}, "responses": {"status_code": 201}}]}"#,
        "pages/GET/configuration.json":
            #"{"variants": [{"when": {"query": {"page": "2"}}, "responses": {"status_code": 206}}]}"#,
        "greetings/GET/configuration.json": #"{"body": "hi {{request.query.name}}", "template": true}"#,
    ]

    static func request(
        _ method: String, _ target: String, headers: [HTTPHeader] = [], client: ClientAddress? = DeciderFixture.loopback
    ) -> Request {
        let target = RequestTarget(target)
        var request = Request(
            method: method, path: target.path, rawQuery: target.rawQuery, headers: RequestHeaders(headers))
        request.client = client
        return request
    }

    static func outline(_ plan: HeadersPlan, in fixture: DeciderFixture) -> String {
        switch plan {
        case .decided(let plan): return "decided \(plan.name)"
        case .awaitsBody(let route):
            guard case .exchange(let index) = route.match else { return "awaits body" }
            let tree = (route.overlay ?? fixture.service.tree).exchangeTree
            return "awaits body of \(tree.exchanges[index].route)"
        case .admin: return "admin"
        }
    }

    @Test(
        "decided at the headers unless the exchange reads the body; the admin API waits for its body",
        arguments: [
            ("GET", "/hello", "decided exchange"),
            ("GET", "/pages?page=2", "decided exchange"),
            ("GET", "/pages", "decided no_variant"),
            ("POST", "/orders", "awaits body of /orders"),
            ("GET", "/greetings", "awaits body of /greetings"),
            ("PUT", "/hello", "decided method_not_allowed"),
            ("GET", "/nowhere", "decided not_found"),
            ("GET", "/hello/../x", "decided dot_segment"),
            ("GET", "/__espressomartini/health", "admin"),
        ])
    func plansAtTheHeaders(_ method: String, _ target: String, _ expected: String) throws {
        let fixture = try DeciderFixture(files: Self.files)
        #expect(
            Self.outline(
                fixture.decider.plan(atHeaders: Self.request(method, target), tree: fixture.service.tree), in: fixture)
                == expected)
    }

    @Test("with a proxy, a miss is forwarded at its headers; with record, everything but the admin API")
    func forwardsAtTheHeaders() throws {
        var spy = ServerConfiguration()
        spy.proxy = ProxyConfiguration(target: ProxyTarget(isHTTPS: false, authority: "127.0.0.1:9", basePath: ""))
        let fixture = try DeciderFixture(files: Self.files, configuration: spy)
        let tree = fixture.service.tree
        #expect(
            Self.outline(fixture.decider.plan(atHeaders: Self.request("GET", "/nowhere"), tree: tree), in: fixture)
                == "decided forwarded")
        #expect(
            Self.outline(fixture.decider.plan(atHeaders: Self.request("GET", "/hello"), tree: tree), in: fixture)
                == "decided exchange")
        var recording = spy
        recording.proxy?.forwards = .everything
        recording.proxy?.records = true
        let recorder = try DeciderFixture(files: Self.files, configuration: recording)
        #expect(
            Self.outline(
                recorder.decider.plan(atHeaders: Self.request("GET", "/hello"), tree: recorder.service.tree),
                in: recorder) == "decided forwarded")
        #expect(
            Self.outline(
                recorder.decider.plan(
                    atHeaders: Self.request("GET", "/__espressomartini/health"), tree: recorder.service.tree),
                in: recorder) == "admin")
    }

    @Test(
        "a session header naming no session is refused before anything else, the admin API too; it is a 400 the journal keeps"
    )
    func aSessionRefusal() throws {
        let fixture = try DeciderFixture(files: Self.files)
        for path in ["/hello", "/nowhere", "/__espressomartini/health"] {
            var request = Self.request("GET", path)
            request.sessionRefusal = SessionName.refusal(
                "the session name has control characters; use printable text", header: "X-Espressomartini-Session")
            guard
                case .decided(.refused(let refusal)) = fixture.decider.plan(
                    atHeaders: request, tree: fixture.service.tree)
            else {
                Issue.record("\(path): not refused at its headers")
                continue
            }
            #expect(refusal.reason == .sessionHeader && refusal.status == 400)
            #expect(
                refusal.message
                    == "the X-Espressomartini-Session header cannot name a session: the session name has control characters; use printable text"
            )
            let decision = fixture.decider.decide(request, tree: fixture.service.tree)
            #expect(decision.statusCode == 400 && !decision.isAdmin, "journaled like any answer")
        }
    }

    @Test(
        "the admin API's access rules are the plan's: 403 for a client not on this machine, 401 without the token, a preflight answered"
    )
    func adminRefusals() throws {
        var cors = ServerConfiguration()
        cors.cors = true
        let fixture = try DeciderFixture(files: Self.files, configuration: cors)
        let tree = fixture.service.tree
        let remote = ClientAddress(text: "192.0.2.7", isLoopback: false)
        guard
            case .refused(let refusal) = fixture.decider.plan(
                Self.request("GET", "/__espressomartini/health", client: remote), tree: tree)
        else {
            Issue.record("a remote client is not refused")
            return
        }
        #expect(refusal.reason == .adminAccess && refusal.status == 403)
        #expect(refusal.message.contains("not the client 192.0.2.7"))
        let refused = fixture.decider.decide(
            Self.request("GET", "/__espressomartini/health", client: remote), tree: tree)
        #expect(refused.isAdmin && refused.statusCode == 403, "refused admin requests are not journaled either")
        let preflight = Self.request(
            "OPTIONS", "/__espressomartini/health",
            headers: [
                HTTPHeader(name: "Origin", value: "http://app.test"),
                HTTPHeader(name: "Access-Control-Request-Method", value: "GET"),
            ],
            client: remote
        )
        guard case .admin = fixture.decider.plan(preflight, tree: tree) else {
            Issue.record("a preflight to the admin API is refused")
            return
        }

        var token = ServerConfiguration()
        token.adminToken = "s3cret"
        let guarded = try DeciderFixture(files: Self.files, configuration: token)
        guard
            case .refused(let missing) = guarded.decider.plan(
                Self.request("GET", "/__espressomartini/health"), tree: guarded.service.tree)
        else {
            Issue.record("a loopback client without the token is not refused")
            return
        }
        #expect(
            missing.status == 401
                && missing.headers == [HTTPHeader(name: "WWW-Authenticate", value: "Bearer realm=\"espressomartini\"")])
        let withToken = Self.request(
            "GET", "/__espressomartini/health", headers: [HTTPHeader(name: "Authorization", value: "Bearer s3cret")])
        guard case .admin = guarded.decider.plan(withToken, tree: guarded.service.tree) else {
            Issue.record("the token does not let the client in")
            return
        }
    }
}
