import EspressoMartini
import Testing

/// CORS (doc/browsers-and-https.md) as decisions: preflights answered by the `Decider` with `"cors": true`, and the headers
/// every answer gets.
@Suite struct CORSDecisionTests {
    static let tree = [
        "users/{id}/GET/configuration.json": #"{"body": {"id": 1}}"#,
        "users/{id}/PUT/configuration.json": #"{"status_code": 204}"#,
        "own/GET/configuration.json": #"{"body": "x"}"#,
        "own/OPTIONS/configuration.json": #"{"status_code": 200, "body": "the tree's own OPTIONS"}"#,
    ]

    static func fixture(cors: Bool = true) throws -> DeciderFixture {
        var configuration = ServerConfiguration()
        configuration.cors = cors
        configuration.headers = [HTTPHeader(name: "X-Global", value: "g")]
        return try DeciderFixture(files: tree, configuration: configuration)
    }

    static let preflight = [
        HTTPHeader(name: "Origin", value: "http://app.test"),
        HTTPHeader(name: "access-control-request-method", value: "PUT"),
        HTTPHeader(name: "Access-Control-Request-Headers", value: "content-type, x-token"),
    ]

    struct PreflightCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let cors: Bool
        let method: String
        let target: String
        let headers: [HTTPHeader]
        let summary: String
    }

    @Test(arguments: [
        PreflightCase(
            testDescription: "a preflight to a route without OPTIONS: 204", cors: true, method: "OPTIONS",
            target: "/users/7",
            headers: preflight, summary: "204 "),
        PreflightCase(
            testDescription: "the tree's OPTIONS exchange still wins", cors: true, method: "OPTIONS", target: "/own",
            headers: preflight, summary: "200 OPTIONS /own 0"),
        PreflightCase(
            testDescription: "OPTIONS without Access-Control-Request-Method is no preflight: 405", cors: true,
            method: "OPTIONS",
            target: "/users/7", headers: [HTTPHeader(name: "Origin", value: "http://app.test")],
            summary: #"405 {"error":"no OPTIONS exchange for /users/7; allowed: GET, HEAD, PUT"}"#),
        PreflightCase(
            testDescription: "with cors off a preflight is a 405 as before", cors: false, method: "OPTIONS",
            target: "/users/7",
            headers: preflight, summary: #"405 {"error":"no OPTIONS exchange for /users/7; allowed: GET, HEAD, PUT"}"#),
        PreflightCase(
            testDescription: "a preflight to no route: 404", cors: true, method: "OPTIONS", target: "/nothing",
            headers: preflight, summary: #"404 {"error":"no exchange for OPTIONS /nothing","closest":[]}"#),
        PreflightCase(
            testDescription: "a preflight to an admin endpoint", cors: true, method: "OPTIONS",
            target: "/__espressomartini/reset",
            headers: preflight, summary: "admin 204 "),
        PreflightCase(
            testDescription: "another method is decided as before", cors: true, method: "PUT", target: "/users/7",
            headers: preflight, summary: "204 PUT /users/{id} 0"),
    ])
    func preflights(_ test: PreflightCase) throws {
        #expect(
            try Self.fixture(cors: test.cors).decide(test.method, test.target, headers: test.headers).summary
                == test.summary)
    }

    @Test func aPreflightAnswerCarriesTheRoutesMethodsTheRequestedHeadersAndAMaxAge() throws {
        let decision = try Self.fixture().decide("OPTIONS", "/users/7", headers: Self.preflight)
        #expect(
            decision.headers == [
                HTTPHeader(name: "Access-Control-Allow-Methods", value: "GET, HEAD, PUT"),
                HTTPHeader(name: "Access-Control-Allow-Headers", value: "content-type, x-token"),
                HTTPHeader(name: "Access-Control-Max-Age", value: "7200"),
                HTTPHeader(name: "X-Global", value: "g"),
            ])
    }

    @Test func aPreflightIsNoExchangesCall() throws {
        let fixture = try Self.fixture()
        _ = fixture.decide("OPTIONS", "/users/7", headers: Self.preflight)
        #expect(fixture.service.tree.counters.map(\.value) == [0, 0, 0, 0])
        _ = fixture.decide("OPTIONS", "/own", headers: Self.preflight)
        #expect(
            fixture.service.tree.counters.map(\.value).reduce(0, +) == 1, "the tree's own OPTIONS exchange is a call")
    }

    struct HeadersCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let response: [HTTPHeader]
        let origin: String?
        let added: [HTTPHeader]
    }

    static let vary = HTTPHeader(name: "Vary", value: "Origin")
    static let credentials = HTTPHeader(name: "Access-Control-Allow-Credentials", value: "true")

    @Test(arguments: [
        HeadersCase(
            testDescription: "no Origin: only Vary",
            response: [HTTPHeader(name: "Content-Type", value: "application/json")], origin: nil,
            added: [vary]),
        HeadersCase(
            testDescription: "an Origin is echoed; the response's header names exposed",
            response: [
                HTTPHeader(name: "X-Request-Id", value: "1"), HTTPHeader(name: "Content-Type", value: "text/plain"),
                HTTPHeader(name: "x-request-id", value: "2"),
            ],
            origin: "http://app.test",
            added: [
                vary, HTTPHeader(name: "Access-Control-Allow-Origin", value: "http://app.test"), credentials,
                HTTPHeader(name: "Access-Control-Expose-Headers", value: "X-Request-Id, Content-Type"),
            ]),
        HeadersCase(
            testDescription: "no headers: nothing to expose", response: [], origin: "null",
            added: [vary, HTTPHeader(name: "Access-Control-Allow-Origin", value: "null"), credentials]),
        HeadersCase(
            testDescription: "the response's own CORS headers win",
            response: [
                HTTPHeader(name: "access-control-allow-origin", value: "*"),
                HTTPHeader(name: "Vary", value: "Accept, origin"),
                HTTPHeader(name: "Access-Control-Allow-Credentials", value: "false"),
            ],
            origin: "http://app.test",
            added: [HTTPHeader(name: "Access-Control-Expose-Headers", value: "Vary")]),
    ])
    func headersAdded(_ test: HeadersCase) {
        #expect(CORSHeaders(answering: test.response).adding(origin: test.origin) == test.added)
    }

    @Test(
        arguments: [
            ([HTTPHeader(name: "ORIGIN", value: "a"), HTTPHeader(name: "Origin", value: "b")], "origin", "a"),
            ([HTTPHeader(name: "Origins", value: "a")], "origin", nil),
            ([HTTPHeader(name: "Orig", value: "a")], "origin", nil),
            ([], "origin", nil),
        ] as [([HTTPHeader], String, String?)])
    func firstHeaderValue(_ headers: [HTTPHeader], _ name: String, _ expected: String?) {
        #expect(RequestHeaders(headers).firstValue(named: name) == expected)
    }
}
