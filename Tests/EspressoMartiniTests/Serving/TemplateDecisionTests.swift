import EspressoMartini
import EspressoMartiniJansson
import Testing

/// `Decider.decide` on templated responses (doc/templates.md): what a template sees, escaping by content type, the
/// headers of the rendered answer, and that responses without `template` are left to the tree's slots.
@Suite struct TemplateDecisionTests {
    static let tree = [
        "orders/{id}/PUT/configuration.json": #"""
        {"template": true, "status_code": 201,
         "headers": {"Location": "/orders/{{request.pathParameters.id}}", "X-Call": "{{call}}"},
         "body": {"id": "{{request.pathParameters.id}}", "count": 2, "tags": ["{{request.queryParameters.tag}}", "fixed"]}}
        """#,
        "echo/POST/configuration.json": #"""
        {"template": true, "headers": {"Content-Type": "application/json"},
         "body": "{\"name\": \"{{request.bodyJSON.user.name}}\", \"ua\": \"{{request.headers.user-agent}}\", \"raw\": {{{request.bodyJSON.user}}}}"}
        """#,
        "page/GET/configuration.json":
            #"{"template": true, "headers": {"Content-Type": "text/html"}, "body": "<p>{{request.queryParameters.q}}</p><p>{{{request.queryParameters.q}}}</p>"}"#,
        "text/GET/configuration.json": #"{"template": true, "body": "{{request.queryParameters.q}}"}"#,
        "static/GET/configuration.json": #"{"body": "{{request.path}}"}"#,
    ]

    static func decide(
        _ fixture: DeciderFixture, _ method: String, _ target: String, headers: [HTTPHeader] = [], body: String? = nil
    ) -> Decision {
        let (path, query) =
            target.contains("?")
            ? (String(target.prefix { $0 != "?" }), String(target.drop { $0 != "?" }.dropFirst())) : (target, "")
        let request = Request(
            method: method, path: path, rawQuery: query, headers: RequestHeaders(headers),
            body: body.map { Array($0.utf8) })
        return fixture.decider.decide(request, tree: fixture.service.tree)
    }

    static func body(_ decision: Decision) -> String? {
        guard case .rendered(_, let made) = decision else { return nil }
        return String(decoding: made.body, as: UTF8.self)
    }

    @Test func anOrderGetsItsIdInTheBodyAndTheLocation() throws {
        var configuration = ServerConfiguration()
        configuration.headers = [HTTPHeader(name: "X-Global", value: "g")]
        let fixture = try DeciderFixture(files: Self.tree, configuration: configuration)
        let decision = Self.decide(fixture, "PUT", "/orders/A-7?tag=blue&tag=red")
        #expect(decision.statusCode == 201)
        #expect(Self.body(decision) == #"{"id":"A-7","count":2,"tags":["[\"blue\",\"red\"]","fixed"]}"#)
        #expect(
            decision.headers == [
                HTTPHeader(name: "Location", value: "/orders/A-7"), HTTPHeader(name: "X-Call", value: "1"),
                HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "X-Global", value: "g"),
            ])
    }

    /// `call` is the exchange's call number, from 1, as its counter moved for this request.
    @Test func callCountsThisExchangesCalls() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let calls = (1...3).map { _ in
            Self.decide(fixture, "PUT", "/orders/1").headers.first { $0.name == "X-Call" }?.value
        }
        #expect(calls == ["1", "2", "3"])
    }

    @Test(
        arguments: [
            // A JSON body: values escaped as JSON string content; `{{{ }}}` as is (an object as compact JSON).
            (
                "POST", "/echo", #"{"user": {"name": "a\"b\\c\n\u0001"}}"#,
                [HTTPHeader(name: "User-Agent", value: "x\"y")],
                #"{"name": "a\"b\\c\n\u0001", "ua": "x\"y", "raw": {"name":"a\"b\\c\n\u0001"}}"#
            ),
            ("POST", "/echo", nil, [], #"{"name": "", "ua": "", "raw": }"#),
            ("POST", "/echo", "not json", [], #"{"name": "", "ua": "", "raw": }"#),
            // HTML: entities, but never in `{{{ }}}`.
            ("GET", "/page?q=%3Cb%3E%26%22'", nil, [], #"<p>&lt;b&gt;&amp;&quot;&#39;</p><p><b>&"'</p>"#),
            // Plain text: as is.
            ("GET", "/text?q=%3Cb%3E%22", nil, [], #"<b>""#),
        ] as [(String, String, String?, [HTTPHeader], String)])
    func valuesAreEscapedAsTheContentTypeAsks(
        _ method: String, _ target: String, _ body: String?, _ headers: [HTTPHeader], _ expected: String
    ) throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(Self.body(Self.decide(fixture, method, target, headers: headers, body: body)) == expected)
    }

    /// A response without `template` is sent from the tree's slot, its text as written.
    @Test func aResponseWithoutTemplateIsNotRendered() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let decision = Self.decide(fixture, "GET", "/static")
        guard case .prebuilt = decision else {
            Issue.record("not sent from the slot: \(decision.summary)")
            return
        }
    }

    /// A tree without templates never renders: the static path stays as it was.
    @Test func aTreeWithoutTemplatesHasNone() throws {
        let fixture = try DeciderFixture(files: ["static/GET/configuration.json": #"{"body": "{{request.path}}"}"#])
        #expect(fixture.service.tree.sendingPlan(0).kind == .prebuilt)
        #expect(fixture.service.tree.exchangeTree.exchanges[0].readsBody == false)
    }

    static let names = [
        ("{{request.method}}", "POST"),
        ("{{request.path}}", "/shop/café/42"),
        ("{{request.query}}", "q=a+b&q=c&e=%C3%A9"),
        ("{{request.body}}", "title=Hi&title=Ho"),
        (
            "{{request.headers.content-type}}|{{request.headers.Content-Type}}",
            "application/x-www-form-urlencoded|application/x-www-form-urlencoded"
        ),
        ("{{request.headers.x-name}}", #"["first","second"]"#),
        ("{{#request.headers.x-name}}<{{.}}>{{/request.headers.x-name}}", "<first><second>"),
        ("{{request.headers}}", #"{"x-name":["first","second"],"content-type":"application/x-www-form-urlencoded"}"#),
        ("{{request.pathParameters.id}}", "42"),
        ("{{request.pathParameters}}", #"{"shop":"shop","id":"42"}"#),
        ("{{request.pathComponents}}", #"["/","shop","café","42"]"#),
        ("{{#request.pathComponents}}<{{.}}>{{/request.pathComponents}}", "</><shop><café><42>"),
        ("{{request.pathComponents.2}}", "café"),
        ("{{request.queryParameters.q}}/{{request.queryParameters.e}}", #"["a b","c"]/é"#),
        ("{{request.queryParameters.q.1}}", "c"),
        ("{{request.queryParameters}}", #"{"q":["a b","c"],"e":"é"}"#),
        ("{{request.formParameters.title}}", #"["Hi","Ho"]"#),
        ("{{request.formParameters}}", #"{"title":["Hi","Ho"]}"#),
        ("{{request.missing}}{{request.headers.none}}{{nothing.at.all}}{{request.method.x}}", ""),
        ("{{call}} {{mockServer}}", "1 http://127.0.0.1:8080"),
        ("{{#request}}{{method}} {{path}}{{/request}}", "POST /shop/café/42"),
    ]

    @Test(arguments: names) func aTemplateSeesTheRequest(_ template: String, _ expected: String) throws {
        let fixture = try DeciderFixture(files: [
            "{shop}/café/{id}/POST/configuration.json": JSONValue.object([
                JSONMember(key: "template", value: .bool(true)), JSONMember(key: "body", value: .string(template)),
            ]).compactText
        ])
        let request = Request(
            method: "POST", path: "/shop/café/42", rawQuery: "q=a+b&q=c&e=%C3%A9",
            headers: RequestHeaders([
                HTTPHeader(name: "X-Name", value: "first"), HTTPHeader(name: "x-name", value: "second"),
                HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded"),
            ]),
            body: Array("title=Hi&title=Ho".utf8)
        )
        #expect(Self.body(fixture.decider.decide(request, tree: fixture.service.tree)) == expected)
    }

    @Test func bodyJSONIsWalkedAndIteratedInSections() throws {
        let fixture = try DeciderFixture(files: [
            "cart/POST/configuration.json": #"""
            {"template": true, "body": "{{request.bodyJSON.user.name}}: {{#request.bodyJSON.items}}{{sku}}×{{qty}} {{/request.bodyJSON.items}}{{^request.bodyJSON.items}}empty{{/request.bodyJSON.items}} {{request.bodyJSON.items.1.sku}}"}
            """#
        ])
        let full = Self.decide(
            fixture, "POST", "/cart",
            body: #"{"user": {"name": "Ada"}, "items": [{"sku": "A", "qty": 2}, {"sku": "B", "qty": 1}]}"#)
        #expect(Self.body(full) == "Ada: A×2 B×1  B")
        #expect(
            Self.body(Self.decide(fixture, "POST", "/cart", body: #"{"user": {"name": "Bo"}, "items": []}"#))
                == "Bo: empty ")
    }

    /// `now` is ISO 8601 in UTC with milliseconds; `uuid` a random version 4 UUID, one per answer (the
    /// body and a header agree), another for the next request.
    @Test func nowAndUUID() throws {
        let fixture = try DeciderFixture(files: [
            "id/GET/configuration.json":
                #"{"template": true, "headers": {"X-Id": "{{uuid}}"}, "body": "{{now}} {{uuid}}"}"#
        ])
        let first = Self.decide(fixture, "GET", "/id"), second = Self.decide(fixture, "GET", "/id")
        let parts = try #require(Self.body(first)?.split(separator: " ").map(String.init))
        #expect(parts.count == 2)
        #expect(parts[0].wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
        #expect(parts[1].wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        #expect(first.headers.first { $0.name == "X-Id" }?.value == parts[1])
        #expect(second.headers.first { $0.name == "X-Id" }?.value != parts[1])
    }

    @Test func cacheValuesAreRead() throws {
        let fixture = try DeciderFixture(files: [
            "me/GET/configuration.json":
                #"{"template": true, "body": {"user": "{{cache.username}}", "city": "{{cache.profile.city}}", "none": "{{cache.none}}"}}"#
        ])
        #expect(Self.body(Self.decide(fixture, "GET", "/me")) == #"{"user":"","city":"","none":""}"#)
        fixture.service.cache.withCall { call in
            call.setValue(.string("ada\""), forKey: "username")
            call.setValue(.object([JSONMember(key: "city", value: .string("Oslo"))]), forKey: "profile")
        }
        #expect(Self.body(Self.decide(fixture, "GET", "/me")) == #"{"user":"ada\"","city":"Oslo","none":""}"#)
    }

    /// A variant's response may be a template: it shares the variants' request model, and `call` is the
    /// variant's own count.
    @Test func variantsRenderTheirTemplates() throws {
        let fixture = try DeciderFixture(files: [
            "login/POST/configuration.json": #"""
            {"variants": [
              {"when": {"json": {"/user": {"present": true}}}, "responses": {"template": true, "body": {"hello": "{{request.bodyJSON.user}}", "call": "{{call}}"}}},
              {"responses": {"status_code": 401}}
            ]}
            """#
        ])
        #expect(
            Self.body(Self.decide(fixture, "POST", "/login", body: #"{"user": "ada"}"#))
                == #"{"hello":"ada","call":"1"}"#)
        let unknown = Self.decide(fixture, "POST", "/login", body: "{}")
        #expect(unknown.statusCode == 401)
        #expect(Self.body(unknown) == nil)
        #expect(
            Self.body(Self.decide(fixture, "POST", "/login", body: #"{"user": "bo"}"#)) == #"{"hello":"bo","call":"2"}"#
        )
    }

    /// Control characters from the request never reach a header value: no header can be added or cut.
    @Test func headerValuesLoseControlCharacters() throws {
        let fixture = try DeciderFixture(files: [
            "h/GET/configuration.json": #"{"template": true, "headers": {"X-Echo": "<{{request.queryParameters.v}}>"}}"#
        ])
        let decision = Self.decide(fixture, "GET", "/h?v=a%0D%0ASet-Cookie:%20x%00y%09z")
        #expect(decision.headers.first { $0.name == "X-Echo" }?.value == "<a  Set-Cookie: x y\tz>")
    }
}
