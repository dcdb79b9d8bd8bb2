import EspressoMartini
import EspressoMartiniJansson
import Testing

/// `Explanation` (doc/command-line.md): what would answer, why the other routes and variants do not, in text and JSON;
/// and that it always agrees with `Decider.decide`.
@Suite struct ExplanationTests {
    static func explain(_ request: Request, in fixture: DeciderFixture) -> Explanation {
        Explanation(explaining: request, in: fixture.service.tree, decider: fixture.decider)
    }

    static let authorization = [HTTPHeader(name: "Authorization", value: "Bearer x")]

    @Test(
        arguments: [
            ("GET", "/products/7?page=2", [], "", "200 GET /products/{id} variant 0 response 0"),
            ("GET", "/products/7", [], "", "401 GET /products/{id} variant 1 response 2"),
            ("GET", "/products/7", authorization, "", "200 GET /products/{id} variant 2 response 3"),
            ("HEAD", "/products/7?page=2", [], "", "200 GET /products/{id} variant 0 response 0"),
            ("HEAD", "/products/new", authorization, "", "200 GET /products/{id} variant 2 response 3"),
            ("GET", "/products/7/a/b", [], "", "200 GET /products/** response 0"),
            ("DELETE", "/products/7", [], "", "204 DELETE /products/:sku response 0"),
            ("POST", "/products/new", [], "", "201 POST /products/new response 0"),
            ("POST", "/orders/1", [], #"{"express": true}"#, "201 POST /orders/{id} variant 0 response 0"),
            ("POST", "/orders/1", [], #"{"express": false}"#, "404 no variant of /orders/{id}"),
            ("POST", "/orders/1", [], "", "404 no variant of /orders/{id}"),
            ("PUT", "/products/7", [], "", "405 allowed GET, HEAD, DELETE"),
            ("BREW", "/products/new", [], "", "405 allowed GET, HEAD, POST, DELETE"),
            ("get", "/orders/1", [], "", "405 allowed POST"),
            ("GET", "/products/../new", [], "", "400 dot segment"),
            ("GET", "/products/%2e%2e/new", [], "", "400 dot segment"),
            ("GET", "/product/7", [], "", "404 closest GET /products/**, GET /products/{id}, DELETE /products/:sku"),
            ("GET", "/nowhere/at/all", [], "", "404 closest GET /products/**"),
            ("GET", "/elsewhere", [], "", "404 closest "),
            ("GET", "/__espressomartini/health", [], "", "admin API"),
        ] as [(String, String, [HTTPHeader], String, String)])
    func saysWhatWouldAnswer(
        _ method: String, _ target: String, _ headers: [HTTPHeader], _ body: String, _ expected: String
    ) throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        let request = ExplanationFixture.request(method, target, headers: headers, body: body)
        #expect(ExplanationFixture.summary(Self.explain(request, in: fixture)) == expected)
    }

    /// The same requests in turn on one tree, each explained with the live counters and then decided:
    /// same exchange, variant, response and status, sequences moving in between.
    @Test func agreesWithTheDecider() throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        let requests = [
            ExplanationFixture.request("GET", "/products/7?page=2"),
            ExplanationFixture.request("GET", "/products/7?page=2"),
            ExplanationFixture.request("HEAD", "/products/8?page=2"),
            ExplanationFixture.request("GET", "/products/7"),
            ExplanationFixture.request("GET", "/products/7", headers: Self.authorization),
            ExplanationFixture.request("HEAD", "/products/new", headers: Self.authorization),
            ExplanationFixture.request("HEAD", "/products/new"),
            ExplanationFixture.request("GET", "/products/a/b"),
            ExplanationFixture.request("DELETE", "/products/7"),
            ExplanationFixture.request("POST", "/products/new"),
            ExplanationFixture.request("POST", "/orders/1", body: #"{"express": true}"#),
            ExplanationFixture.request("POST", "/orders/1", body: #"{"express": 1}"#),
            ExplanationFixture.request("PUT", "/products/7"),
            ExplanationFixture.request("OPTIONS", "/orders/1"),
            ExplanationFixture.request("BREW", "/nowhere"),
            ExplanationFixture.request("GET", "/products/7/../8"),
            ExplanationFixture.request("GET", "/product/7"),
            ExplanationFixture.request("GET", "//products//7/?page=2"),
            ExplanationFixture.request("GET", "/__espressomartini/health"),
        ]
        for request in requests {
            let explanation = Self.explain(request, in: fixture)
            let decision = fixture.decider.decide(request, tree: fixture.service.tree)
            let described = "\(request.method) \(request.path)?\(request.rawQuery)"
            switch explanation.plan {
            case .exchange(let choice) where choice.position != nil:
                let answer = try #require(decision.exchangeAnswer, "\(described): \(decision.summary)")
                #expect(
                    answer.exchangeIndex == choice.exchange && answer.variant == choice.variant
                        && answer.position == choice.position, "\(described)")
            case .admin:
                #expect(decision.isAdmin, "\(described)")
            default:
                #expect(decision.exchangeAnswer == nil && !decision.isAdmin, "\(described): \(decision.summary)")
            }
            if case .admin = explanation.plan {
            } else {
                #expect(explanation.statusCode.map(UInt32.init) == decision.statusCode, "\(described)")
            }
            if case .noVariant = explanation.plan {
                #expect(decision.summary.contains("\"mismatches\""), "\(described)")
            }
            if case .notFound = explanation.plan {
                let closest = explanation.closest.map { "\"\($0.method.name) \($0.route)\"" }.joined(separator: ",")
                #expect(decision.summary.contains("\"closest\":[\(closest)]"), "\(described): \(decision.summary)")
            }
        }
    }

    @Test(arguments: [
        ("GET", "/products/7", ["/products/:sku DELETE no method", "/products/** GET less specific"]),
        (
            "GET", "/products/new",
            ["/products/new POST no method", "/products/:sku DELETE no method", "/products/** GET less specific"]
        ),
        (
            "PUT", "/products/7",
            ["/products/:sku DELETE no method", "/products/{id} GET no method", "/products/** GET no method"]
        ),
        ("DELETE", "/products/7", ["/products/{id} GET no method", "/products/** GET no method"]),
        ("GET", "/products/7/8", []),
        ("GET", "/product/7", []),
        ("GET", "/products/./7", []),
    ])
    func saysWhyTheOtherRoutesMatchingThePathDoNotAnswer(
        _ method: String, _ target: String, _ expected: [String]
    ) throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        let explanation = Self.explain(ExplanationFixture.request(method, target), in: fixture)
        let others = explanation.otherRoutes.map { other in
            "\(other.route) \(other.methods.map(\.name).joined(separator: ",")) "
                + (other.reason == .lessSpecific ? "less specific" : "no method")
        }
        #expect(others == expected)
    }

    @Test(
        arguments: [
            ("/products/7?page=2", [], [Explanation.VariantVerdict.holds, .notTried, .notTried]),
            ("/products/7?page=3", [], [.fails(#"query "page" is "3", expected "2""#), .holds, .notTried]),
            (
                "/products/7?page=3", authorization,
                [
                    .fails(#"query "page" is "3", expected "2""#),
                    .fails(#"header "authorization" is "Bearer x", expected it to be absent"#), .holds,
                ]
            ),
            ("/products/7/8", [], []),
        ] as [(String, [HTTPHeader], [Explanation.VariantVerdict])])
    func saysWhatBecameOfEachVariant(
        _ target: String, _ headers: [HTTPHeader], _ expected: [Explanation.VariantVerdict]
    ) throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        #expect(
            Self.explain(ExplanationFixture.request("GET", target, headers: headers), in: fixture).variants == expected)
    }

    @Test func readsTheCountersItIsGivenAndMovesNone() throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        let request = ExplanationFixture.request("GET", "/products/7?page=2")
        let tree = fixture.service.tree
        let atZero = Self.explain(request, in: fixture)
        #expect(ExplanationFixture.summary(atZero) == "200 GET /products/{id} variant 0 response 0")
        let counter = tree.counter(
            exchangeAt: atZero.tree.exchanges.firstIndex { $0.route.description == "/products/{id}" }!, variant: 0)
        #expect(counter.value == 0)
        for _ in 0..<7 { _ = counter.nextCall() }
        let fromSeven = Self.explain(request, in: fixture)
        #expect(ExplanationFixture.summary(fromSeven) == "202 GET /products/{id} variant 0 response 1")
        #expect(fromSeven.calls == 7 && fromSeven.sequencePosition! == (1, 2))
        #expect(counter.value == 7)
    }

    @Test func withoutTheAdminAPIItsPrefixIsRoutedLikeAnyPath() throws {
        var configuration = ServerConfiguration()
        configuration.admin = false
        let fixture = try DeciderFixture(files: ExplanationFixture.files, configuration: configuration)
        let explanation = Self.explain(ExplanationFixture.request("GET", "/__espressomartini/health"), in: fixture)
        guard case .notFound = explanation.plan else {
            Issue.record("planned \(explanation.plan.name)")
            return
        }
    }

    // MARK: - Text and JSON

    @Test(
        arguments: [
            (
                "GET", "/products/7?page=3", authorization,
                """
                GET /products/7?page=3
                answer:   200 from GET /products/{id}, variant 3 of 3, response 1 of 1
                folder:   products/{id}/GET
                response: 200 body {"page":1}
                variants:
                  1 when query page=2: fails: query "page" is "3", expected "2"
                  2 when header authorization absent: fails: header "authorization" is "Bearer x", expected it to be absent
                  3: holds
                other routes matching the path:
                  /products/:sku (DELETE): no GET exchange
                  /products/** (GET): less specific than /products/{id}

                """
            ),
            (
                "HEAD", "/products/7?page=2", [],
                """
                HEAD /products/7?page=2
                answer:   200 from GET /products/{id} (HEAD answered as GET, without the body), variant 1 of 3, response 1 of 2
                folder:   products/{id}/GET
                response: 200 body "page 2"
                variants:
                  1 when query page=2: holds
                  2 when header authorization absent: not tried
                  3: not tried
                other routes matching the path:
                  /products/:sku (DELETE): no HEAD exchange
                  /products/** (GET): less specific than /products/{id}

                """
            ),
            (
                "POST", "/orders/1", [],
                """
                POST /orders/1
                answer:   404, no variant of POST /orders/{id} holds
                folder:   orders/{id}/POST
                variants:
                  1 when json /express=true: fails: json "/express" cannot be checked: the body is not JSON

                """
            ),
            (
                "PUT", "/products/new", [],
                """
                PUT /products/new
                answer:   405, no route matching the path has a PUT exchange; allowed: GET, HEAD, POST, DELETE
                routes matching the path:
                  /products/new (POST): no PUT exchange
                  /products/:sku (DELETE): no PUT exchange
                  /products/{id} (GET): no PUT exchange
                  /products/** (GET): no PUT exchange

                """
            ),
            (
                "GET", "/product/7", [],
                """
                GET /product/7
                answer:   404, no route matches the path
                closest routes:
                  GET /products/**
                  GET /products/{id}
                  DELETE /products/:sku

                """
            ),
            (
                "GET", "/a/%2E/b", [],
                """
                GET /a/./b
                answer:   400, the path has a '.' or '..' segment

                """
            ),
            (
                "GET", "/__espressomartini/exchanges", [],
                """
                GET /__espressomartini/exchanges
                answer:   the admin API (/__espressomartini) answers

                """
            ),
        ] as [(String, String, [HTTPHeader], String)])
    func readsAsText(_ method: String, _ target: String, _ headers: [HTTPHeader], _ expected: String) throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        let explanation = Self.explain(
            ExplanationFixture.request(method, target, headers: headers, body: ""), in: fixture)
        #expect(explanation.text == expected)
    }

    @Test(arguments: [
        (
            "GET", "/products/7?page=2",
            #"""
            {"method":"GET","path":"/products/7","query":"page=2","session":null,"status":200,"outcome":"exchange",\#
            "exchange":{"method":"GET","route":"/products/{id}","folder":"products/{id}/GET","source":"tree"},"variant":0,"sequence":"repeat_last",\#
            "response":{"position":0,"count":2,"calls":0,"status_code":200,"body":"page 2","delay":null},"network":null,\#
            "variants":[{"variant":0,"when":{"query":{"page":"2"}},"result":"holds"},\#
            {"variant":1,"when":{"headers":{"Authorization":{"present":false}}},"result":"not_tried"},\#
            {"variant":2,"when":null,"result":"not_tried"}],\#
            "other_routes":[{"route":"/products/:sku","methods":["DELETE"],"reason":"no_exchange_for_method"},\#
            {"route":"/products/**","methods":["GET"],"reason":"less_specific"}],"allowed":[],"closest":[],"forwarded_to":null}
            """#
        ),
        (
            "POST", "/orders/2",
            #"""
            {"method":"POST","path":"/orders/2","query":"","session":null,"status":404,"outcome":"no_variant",\#
            "exchange":{"method":"POST","route":"/orders/{id}","folder":"orders/{id}/POST","source":"tree"},"variant":null,"sequence":null,"response":null,"network":null,\#
            "variants":[{"variant":0,"when":{"json":{"/express":{"equals":true}}},"result":"fails",\#
            "mismatch":"json \"/express\" cannot be checked: the body is not JSON"}],\#
            "other_routes":[],"allowed":[],"closest":[],"forwarded_to":null}
            """#
        ),
        (
            "DELETE", "/orders/2",
            #"""
            {"method":"DELETE","path":"/orders/2","query":"","session":null,"status":405,"outcome":"method_not_allowed","exchange":null,\#
            "variant":null,"sequence":null,"response":null,"network":null,"variants":[],\#
            "other_routes":[{"route":"/orders/{id}","methods":["POST"],"reason":"no_exchange_for_method"}],"allowed":["POST"],"closest":[],"forwarded_to":null}
            """#
        ),
        (
            "GET", "/order/7",
            #"""
            {"method":"GET","path":"/order/7","query":"","session":null,"status":404,"outcome":"not_found","exchange":null,\#
            "variant":null,"sequence":null,"response":null,"network":null,"variants":[],"other_routes":[],"allowed":[],"closest":["POST /orders/{id}"],"forwarded_to":null}
            """#
        ),
    ])
    func readsAsJSON(_ method: String, _ target: String, _ expected: String) throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        #expect(Self.explain(ExplanationFixture.request(method, target), in: fixture).json.compactText == expected)
    }

    @Test func aResponseFromAFileNamesItAndItsDelay() throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        let request = ExplanationFixture.request("GET", "/products/7?page=2")
        _ = fixture.decide("GET", "/products/7?page=2")
        let explanation = Self.explain(request, in: fixture)
        #expect(explanation.text.contains("response: 202 later.json\n"))
        let express = Self.explain(
            ExplanationFixture.request("POST", "/orders/1", body: #"{"express":true}"#), in: fixture)
        #expect(express.text.contains("response: 201 no body delay 0.5s\n"))
        #expect(
            express.json.compactText.contains(
                #""response":{"position":0,"count":1,"calls":0,"status_code":201,"delay":0.5}"#))
    }
}

/// The admin API's `explain` (doc/command-line.md) as decisions.
@Suite struct ExplainAdminDecisionTests {
    @Test func answersTheExplanationOfTheRequestItNames() throws {
        let fixture = try DeciderFixture(files: ExplanationFixture.files)
        let headers = [HTTPHeader(name: "Authorization", value: "x")]
        let decision = fixture.decide(
            "GET", "/__espressomartini/explain?method=GET&path=%2Fproducts%2F7%3Fpage%3D3", headers: headers)
        let expected = Explanation(
            explaining: ExplanationFixture.request("GET", "/products/7?page=3", headers: headers),
            in: fixture.service.tree, decider: fixture.decider
        )
        #expect(decision.summary == "admin 200 " + expected.json.compactText)
        #expect(expected.variants.last == .holds)
    }

    @Test(arguments: [
        (
            "GET", "/__espressomartini/explain?method=GET",
            #"admin 400 {"error":"give 'method' and 'path': explain?method=GET&path=/users/42"}"#
        ),
        (
            "DELETE", "/__espressomartini/explain?method=GET&path=/",
            #"admin 405 {"error":"use GET, HEAD for /__espressomartini/explain"}"#
        ),
    ])
    func refusesWhatItCannotExplain(_ method: String, _ target: String, _ expected: String) throws {
        #expect(try DeciderFixture(files: ExplanationFixture.files).decide(method, target).summary == expected)
    }
}
