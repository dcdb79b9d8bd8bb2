import EspressoMartini
import Testing

/// `Decider.decide` on exchanges with variants (doc/variants.md): the first variant whose conditions hold answers,
/// with its own counter; none: a 404 saying what each variant missed.
@Suite struct VariantDecisionTests {
    static let tree = [
        "api/products/GET/configuration.json": #"""
        {"variants": [
          {"when": {"query": {"page": "2"}}, "responses": {"body": "page 2"}},
          {"when": {"query": {"tag": {"prefix": "ice"}}, "headers": {"Accept-Language": {"regex": "(?i)fr.*"}}}, "responses": {"body": "glacé"}},
          {"responses": [{"body": "page 1"}, {"body": "page 1 again"}]}
        ]}
        """#,
        "api/login/POST/configuration.json": #"""
        {"variants": [
          {"when": {"json": {"/password": "espresso", "/remember": {"equals": true}}}, "responses": {"status_code": 200}},
          {"when": {"form": {"password": "espresso"}}, "responses": {"status_code": 201}},
          {"when": {"body": {"contains": "espresso"}}, "responses": {"status_code": 202}},
          {"when": {"headers": {"Authorization": {"present": false}}, "cookies": {"session": {"present": false}}}, "responses": {"status_code": 401}}
        ]}
        """#,
        "users/{id}/GET/configuration.json":
            #"{"variants": [{"when": {"path": {"id": "7"}}, "responses": {"body": "seven"}}]}"#,
        "graphql/POST/configuration.json": #"""
        {"variants": [
          {"when": {"graphql": {"operation": "GetCart", "type": "query"}}, "responses": {"body": "cart"}},
          {"when": {"graphql": {"type": "mutation"}}, "responses": {"body": "mutated"}}
        ]}
        """#,
    ]

    static func decide(
        _ fixture: DeciderFixture, _ method: String, _ target: String, headers: [HTTPHeader] = [], body: String? = nil,
        bodySize: Int? = nil
    ) -> Decision {
        let (path, query) =
            target.contains("?")
            ? (String(target.prefix { $0 != "?" }), String(target.drop { $0 != "?" }.dropFirst())) : (target, "")
        let request = Request(
            method: method, path: path, rawQuery: query, headers: RequestHeaders(headers),
            body: body.map { Array($0.utf8) }, bodySize: bodySize
        )
        return fixture.decider.decide(request, tree: fixture.service.tree)
    }

    /// `status body` of an exchange's answer, with its variant (from 1).
    static func summary(_ decision: Decision) -> String {
        guard let answer = decision.exchangeAnswer else { return decision.summary }
        var body = ""
        if case .inline(.string(let text))? = answer.response.content?.body { body = " " + text }
        return "variant \((answer.variant ?? -1) + 1): \(answer.statusCode)\(body)"
    }

    @Test(
        arguments: [
            ("GET", "/api/products?page=2", [], nil, "variant 1: 200 page 2"),
            ("GET", "/api/products?page=3&page=2", [], nil, "variant 1: 200 page 2"),
            (
                "GET", "/api/products?tag=iced+latte", [HTTPHeader(name: "accept-language", value: "FR-ch")], nil,
                "variant 2: 200 glacé"
            ),
            (
                "GET", "/api/products?tag=iced", [HTTPHeader(name: "Accept-Language", value: "en")], nil,
                "variant 3: 200 page 1"
            ),
            ("GET", "/api/products", [], nil, "variant 3: 200 page 1"),
            ("POST", "/api/login", [], #"{"password": "espresso", "remember": true}"#, "variant 1: 200"),
            ("POST", "/api/login", [], #"{"remember": true, "password": "espresso"}"#, "variant 1: 200"),
            ("POST", "/api/login", [], #"{"password": "espresso", "remember": 1}"#, "variant 3: 202"),
            ("POST", "/api/login", [], "user=ada&password=espresso", "variant 2: 201"),
            ("POST", "/api/login", [], "user=ada&password=latte", "variant 4: 401"),
            ("POST", "/api/login", [], nil, "variant 4: 401"),
            ("GET", "/users/7", [], nil, "variant 1: 200 seven"),
            ("POST", "/graphql", [], #"{"query": "query GetCart { cart { id } }"}"#, "variant 1: 200 cart"),
            ("POST", "/graphql", [], #"{"query": "mutation { add(id: 1) }"}"#, "variant 2: 200 mutated"),
            (
                "POST", "/graphql", [], #"{"query": "query A { a } mutation B { b }", "operationName": "B"}"#,
                "variant 2: 200 mutated"
            ),
        ] as [(String, String, [HTTPHeader], String?, String)])
    func theFirstVariantThatHoldsAnswers(
        _ method: String, _ target: String, _ headers: [HTTPHeader], _ body: String?, _ expected: String
    ) throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(Self.summary(Self.decide(fixture, method, target, headers: headers, body: body)) == expected)
    }

    @Test func noVariantHoldsA404SaysWhatEachMissed() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let decision = Self.decide(
            fixture, "POST", "/api/login", headers: [HTTPHeader(name: "Authorization", value: "Bearer x")],
            body: #"{"password": "latte"}"#
        )
        #expect(
            decision.summary == #"""
                404 {"error":"no variant of POST /api/login answers POST /api/login","route":"/api/login","mismatches":[\#
                "variant 1: json \"/password\" is \"latte\", expected \"espresso\"",\#
                "variant 2: form \"password\" is missing, expected \"espresso\"",\#
                "variant 3: body is \"{\\\"password\\\": \\\"latte\\\"}\", expected a value containing \"espresso\"",\#
                "variant 4: header \"authorization\" is \"Bearer x\", expected it to be absent"]}
                """#)
    }

    @Test func aBodyLongerThanTheLimitFailsBodyConditionsAndSaysSo() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let decision = Self.decide(
            fixture, "POST", "/api/login", headers: [HTTPHeader(name: "Cookie", value: "session=1")],
            body: #"{"password": "espresso"}"#,
            bodySize: VariantConditions.bodyLimit + 1
        )
        #expect(decision.statusCode == 404)
        #expect(decision.summary.contains("larger than 1 MiB"), "\(decision.summary)")
    }

    @Test func eachVariantCountsItsOwnCalls() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(Self.summary(Self.decide(fixture, "GET", "/api/products")) == "variant 3: 200 page 1")
        #expect(Self.summary(Self.decide(fixture, "GET", "/api/products?page=2")) == "variant 1: 200 page 2")
        #expect(Self.summary(Self.decide(fixture, "GET", "/api/products")) == "variant 3: 200 page 1 again")
        let tree = fixture.service.tree
        let index = try #require(tree.exchangeTree.exchanges.firstIndex { $0.route.description == "/api/products" })
        #expect((0..<3).map { tree.counter(exchangeAt: index, variant: $0).value } == [1, 0, 2])
        #expect(Self.decide(fixture, "GET", "/api/products").exchangeAnswer?.sequencePosition.index == 1)
    }

    @Test func theAdminAPIListsEachVariantsCallsAndResetsThemAll() throws {
        let fixture = try DeciderFixture(files: [
            "v/GET/configuration.json":
                #"{"variants": [{"when": {"query": {"a": "1"}}, "responses": {}}, {"responses": {}}]}"#
        ])
        _ = Self.decide(fixture, "GET", "/v?a=1")
        _ = Self.decide(fixture, "GET", "/v")
        _ = Self.decide(fixture, "GET", "/v")
        #expect(
            fixture.decide("GET", "/__espressomartini/exchanges").summary == """
                admin 200 [{"method":"GET","route":"/v","folder":"v/GET","responses":2,"calls":3,\
                "variants":[{"when":"query a=1","responses":1,"calls":1},{"when":"","responses":1,"calls":2}],"source":"tree"}]
                """)
        _ = fixture.decide("POST", "/__espressomartini/reset?method=GET&route=/v")
        #expect(fixture.service.tree.counters.map(\.value) == [0, 0])
    }
}
