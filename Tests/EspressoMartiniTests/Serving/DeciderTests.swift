import EspressoMartini
import Testing

/// `Decider.decide` (doc/matching.md, doc/admin-api.md) in-process: the answer every request gets, without a socket.
@Suite struct DeciderTests {
    static let tree = [
        "users/{id}/GET/configuration.json": #"[{"body": "first"}, {"body": "second"}, {"status_code": 503}]"#,
        "users/:userId/DELETE/configuration.json": #"{"status_code": 204}"#,
        "users/me/GET/configuration.json": #"{"body": {"me": true}}"#,
        "files/**/GET/configuration.json": #"{"body": "any file"}"#,
        "slow/GET/configuration.json": #"{"delay": 0.25, "status_code": 202}"#,
        "plain/POST/configuration.json": #"{"status_code": 201}"#,
        "uneven/GET/configuration.json": #"{"delay": {"min": 0.2, "max": 0.4}}"#,
        "even/GET/configuration.json": #"{"delay": {"min": 0.3, "max": 0.3}}"#,
    ]

    @Test(arguments: [
        ("GET", "/users/me", "200 GET /users/me 0"),
        ("GET", "/users/42", "200 GET /users/{id} 0"),
        ("HEAD", "/users/42", "200 GET /users/{id} 0"),
        ("DELETE", "/users/42", "204 DELETE /users/:userId 0"),
        ("GET", "/files/a/b/c.txt", "200 GET /files/** 0"),
        ("GET", "//users//me/", "200 GET /users/me 0"),
        ("GET", "/nowhere", #"404 {"error":"no exchange for GET /nowhere","closest":[]}"#),
        (
            "GET", "/user/me",
            #"404 {"error":"no exchange for GET /user/me","closest":["GET /users/me","GET /users/{id}","DELETE /users/:userId"]}"#
        ),
        ("GET", "/file/a.txt", #"404 {"error":"no exchange for GET /file/a.txt","closest":["GET /files/**"]}"#),
        ("PUT", "/users/42", #"405 {"error":"no PUT exchange for /users/42; allowed: GET, HEAD, DELETE"}"#),
        ("BREW", "/plain", #"405 {"error":"no BREW exchange for /plain; allowed: POST"}"#),
        ("BREW", "/nowhere", #"404 {"error":"no exchange for BREW /nowhere","closest":[]}"#),
        ("get", "/users/me", #"405 {"error":"no get exchange for /users/me; allowed: GET, HEAD, DELETE"}"#),
        ("GET", "/users/../me", #"400 {"error":"the path /users/../me has a '.' or '..' segment"}"#),
        ("GET", "/slow", "after 0.25 s: 202 GET /slow 0"),
    ])
    func answers(_ method: String, _ path: String, _ expected: String) throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(fixture.decide(method, path).summary == expected)
    }

    @Test func aSequencePlaysInOrderAndRepeatsItsLast() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let positions = (0..<5).map { _ in fixture.decide("GET", "/users/7").exchangeAnswer?.position }
        #expect(positions == [0, 1, 2, 2, 2])
        #expect(fixture.decide("HEAD", "/users/8").statusCode == 503, "HEAD counts as a call of the GET exchange")
    }

    @Test func aMethodNotAllowedNamesTheAllowedOnesInAnAllowHeader() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(
            fixture.decide("POST", "/users/1").headers.contains(HTTPHeader(name: "Allow", value: "GET, HEAD, DELETE")))
    }

    @Test func theGlobalDelayAppliesWhereAResponseHasNone() throws {
        var configuration = ServerConfiguration()
        configuration.delay = 1.5
        let fixture = try DeciderFixture(files: Self.tree, configuration: configuration)
        #expect(fixture.decide("GET", "/users/me").summary == "after 1.5 s: 200 GET /users/me 0")
        #expect(fixture.decide("GET", "/slow").summary == "after 0.25 s: 202 GET /slow 0")
    }

    /// A delay range draws each request's wait afresh, uniformly within its bounds.
    @Test func aDelayRangeDrawsEachRequestsWaitWithinItsBounds() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let waits = (0..<400).map { _ -> Double in
            guard case .delayed(let seconds, _) = fixture.decide("GET", "/uneven") else { return -1 }
            return seconds
        }
        #expect(waits.allSatisfy { (0.2...0.4).contains($0) })
        #expect(Set(waits).count > 300, "fresh draws, not one")
        #expect(
            waits.filter { $0 < 0.3 }.count > 120 && waits.filter { $0 >= 0.3 }.count > 120, "spread over the range")
        #expect(fixture.decide("GET", "/even").summary == "after 0.3 s: 200 GET /even 0")
    }

    @Test func globalHeadersComeBelowTheAnswersOwn() throws {
        var configuration = ServerConfiguration()
        configuration.headers = [
            HTTPHeader(name: "X-Mock", value: "yes"), HTTPHeader(name: "Content-Type", value: "text/x-global"),
        ]
        let fixture = try DeciderFixture(files: Self.tree, configuration: configuration)
        #expect(
            fixture.decide("GET", "/nowhere").headers == [
                HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "X-Mock", value: "yes"),
            ])
    }

    @Test(arguments: [
        ("/users/{id}", "/users/42", [PathParameter(name: "id", value: "42")]),
        (
            "/users/:userId/posts/{post}", "/users/ada/posts/7",
            [PathParameter(name: "userId", value: "ada"), PathParameter(name: "post", value: "7")]
        ),
        ("/users/*/posts/{post}", "/users/ada/posts/a b", [PathParameter(name: "post", value: "a b")]),
        ("/files/**", "/files/a/b", []),
        ("/users/me", "/users/me", []),
    ])
    func pathParametersComeFromTheRoutesOwnNames(_ route: String, _ path: String, _ expected: [PathParameter]) {
        #expect(Request(method: "GET", path: path).pathParameters(of: RoutePattern(parsing: route)) == expected)
    }

    @Test func twoMethodsSharingAnEdgeNameTheirCapturesDifferently() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let request = Request(method: "DELETE", path: "/users/42")
        let answer = try #require(fixture.decider.decide(request, tree: fixture.service.tree).exchangeAnswer)
        #expect(request.pathParameters(of: answer.exchange.route) == [PathParameter(name: "userId", value: "42")])
        let get = try #require(fixture.decide("GET", "/users/42").exchangeAnswer)
        #expect(request.pathParameters(of: get.exchange.route) == [PathParameter(name: "id", value: "42")])
    }
}
