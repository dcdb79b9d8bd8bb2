import Foundation
import Testing

/// doc/scripts.md against the real server: the request wrapper, the Response and Body API, the cache, the log.
@Suite("scripts")
struct ScriptServingTests {
    static let exchanges: [String: TreeEntry] = [
        "echo/{id}/POST/configuration.json": #"{"javascript_file": "echo.js"}"#,
        "echo/{id}/POST/echo.js": """
        function response(request, cache) {
            const {method, path, query, body, headers, pathComponents, pathParameters, queryParameters,
                   bodyJSON, bodyYAML, formParameters, graphQLRequest, call} = request;
            return Response.ok(Body.json({method, path, query, body, headers: {x: headers["x-tag"], type: headers["content-type"]},
                pathComponents, pathParameters, queryParameters, bodyJSON, bodyYAML, formParameters, graphQLRequest, call}));
        }
        """,
        "answers/{kind}/GET/configuration.json": #"{"javascript_file": "answers.js"}"#,
        "answers/{kind}/GET/answers.js": """
        const answers = {
            ok: () => Response.ok(Body.json({a: 1})),
            text: () => Response.ok(Body.text("plain")),
            string: () => Response.created("as text", {"X-Made": "yes"}),
            object: () => Response.accepted([1, 2]),
            yaml: () => Response.ok(Body.yaml({name: "Ada", tags: ["a", "b"], nested: {n: 1}})),
            file: () => Response.ok(Body.file("data/page.html")),
            fileType: () => Response.ok(Body.file("data/page.html", "text/plain")),
            template: () => Response.ok(Body.template("data/hello.json", undefined, {name: "Ada \\"the\\" first"})),
            outside: () => Response.ok(Body.file("../../../../etc/passwd")),
            noContent: () => Response.noContent(),
            redirect: () => Response.temporaryRedirect("/elsewhere"),
            ownType: () => Response.ok(Body.json({}), {"Content-Type": "application/vnd.x+json", "Set-Cookie": ["a=1", "b=2"]}),
            unauthorised: () => Response.unauthorised(),
            unauthorized: () => Response.unauthorized(Body.json({error: "who"})),
            raw: () => Response.raw(418, "teapot"),
        };
        function response(request) { return answers[request.pathParameters.kind](); }
        """,
        "answers/{kind}/GET/data/page.html": "<p>hi</p>",
        "answers/{kind}/GET/data/hello.json":
            #"{"greeting": "hello {{name}}", "id": "{{request.pathParameters.kind}}"}"#,
        "counter/POST/configuration.json":
            #"{"javascript": "function response(request, cache) { cache.n = (cache.n ?? 0) + 1; return Response.ok(Body.json({n: cache.n})); }"}"#,
        "cart/POST/configuration.json": #"{"javascript_file": "cart.js"}"#,
        "cart/POST/cart.js": """
        function response(request, cache) {
            if (cache.token == undefined) return Response.unauthorised();
            const cart = cache.cart ?? {};
            cart[request.bodyJSON.id] = (cart[request.bodyJSON.id] ?? 0) + request.bodyJSON.quantity;
            cache.cart = cart;
            return Response.ok(Body.json({items: cart}));
        }
        """,
        "login/POST/configuration.json":
            #"{"javascript": "function response(request, cache) { cache.token = 't-' + request.bodyJSON.user; delete cache.gone; return Response.ok(); }"}"#,
        "logs/GET/configuration.json":
            #"{"javascript": "function response(request) { console.log('hello', {from: 'script'}); console.warn('careful'); return Response.ok(); }"}"#,
        "steps/GET/configuration.json":
            #"[{"javascript": "function response() { return Response.ok('first'); }"}, {"body": "then static"}]"#,
        "chosen/GET/configuration.json":
            #"{"variants": [{"when": {"query": {"js": "1"}}, "responses": {"javascript": "function response(r) { return Response.ok('script ' + r.queryParameters.js); }"}}, {"responses": {"body": "static"}}]}"#,
        "count/POST/configuration.json":
            #"{"javascript": "function response(r) { return Response.ok(Body.json({n: r.bodyJSON.items.length, last: r.bodyJSON.items.at(-1).name})); }"}"#,
        "delayed/GET/configuration.json":
            #"{"javascript": "function response() { return Response.ok('late'); }", "delay": 0.2}"#,
        "whoami/{id}/GET/configuration.json": #"{"javascript_file": "whoami.js"}"#,
        "whoami/{id}/GET/whoami.js": """
        function response(request, cache) {
            cache.user = {name: "Ada", id: request.pathParameters.id};
            return Response.ok(Body.template("who.txt", "text/plain", {extra: "given"}));
        }
        """,
        "whoami/{id}/GET/who.txt":
            "{{cache.user.name}}|{{cache.user.id}}|{{call}}|{{now}}|{{uuid}}|{{mockServer}}|{{request.path}}|{{extra}}",
    ]

    static func serve(
        _ configuration: String? = #"{"headers": {"X-Global": "g", "Content-Type": "x/global"}}"#
    ) async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(exchanges: exchanges, configuration: configuration)
        return (tree, try await ServerProcess.serving(tree))
    }

    @Test(
        "the request wrapper: method, path, query, body, headers, path components and parameters, parsed bodies, call")
    func requestWrapper() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let json = try await server.client.send(
            "POST", "/echo/42?tag=a&tag=b&q=x+y",
            headers: [("Content-Type", "application/json; charset=utf-8"), ("X-Tag", "1"), ("X-Tag", "2")],
            body: Array(#"{"query": "query Cart { items }", "operationName": "Cart"}"#.utf8)
        )
        #expect(json.statusCode == 200, "\(json.text)")
        let object = try #require(try json.json() as? [String: Any])
        #expect(object["method"] as? String == "POST")
        #expect(object["path"] as? String == "/echo/42")
        #expect(object["query"] as? String == "tag=a&tag=b&q=x+y")
        #expect((object["headers"] as? [String: Any])?["x"] as? [String] == ["1", "2"])
        #expect(object["pathComponents"] as? [String] == ["/", "echo", "42"])
        #expect(object["pathParameters"] as? [String: String] == ["id": "42"])
        #expect((object["queryParameters"] as? [String: Any])?["tag"] as? [String] == ["a", "b"])
        #expect((object["queryParameters"] as? [String: Any])?["q"] as? String == "x y")
        #expect((object["bodyJSON"] as? [String: Any])?["operationName"] as? String == "Cart")
        #expect(object["bodyYAML"] is NSNull)
        #expect((object["graphQLRequest"] as? [String: Any])?["query"] as? String == "query Cart { items }")
        #expect(object["call"] as? Int == 1)

        let form = try await server.client.send(
            "POST", "/echo/7", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("user=ada&pw=a%26b".utf8)
        )
        let formObject = try #require(try form.json() as? [String: Any])
        #expect(formObject["formParameters"] as? [String: String] == ["user": "ada", "pw": "a&b"])
        #expect(formObject["bodyJSON"] is NSNull)
        #expect(formObject["query"] is NSNull)
        #expect(formObject["call"] as? Int == 2)

        let yaml = try await server.client.send(
            "POST", "/echo/7", headers: [("Content-Type", "application/x-yaml")],
            body: Array("user:\n  name: Ada\n  tags: [a, b]\nage: 36\n".utf8)
        )
        let yamlObject = try #require(try yaml.json() as? [String: Any])
        let bodyYAML = try #require(yamlObject["bodyYAML"] as? [String: Any], "\(yaml.text)")
        #expect((bodyYAML["user"] as? [String: Any])?["tags"] as? [String] == ["a", "b"])
        #expect(bodyYAML["age"] as? Int == 36)
        #expect(yamlObject["bodyJSON"] is NSNull)
        let notYAML = try await server.client.send(
            "POST", "/echo/7", headers: [("Content-Type", "text/yaml")], body: Array("a: [1, 2\n".utf8))
        #expect((try notYAML.json() as? [String: Any])?["bodyYAML"] is NSNull, "\(notYAML.text)")

        let notJSON = try await server.client.send(
            "POST", "/echo/7", headers: [("Content-Type", "application/json")], body: Array("{nope".utf8))
        let notJSONObject = try #require(try notJSON.json() as? [String: Any])
        #expect(notJSONObject["bodyJSON"] is NSNull)
        #expect(notJSONObject["body"] as? String == "{nope")
    }

    @Test(
        "Response and Body: status, body, content type as doc/tree.md says, the script's headers first, the global ones last",
        arguments: [
            ("ok", 200, "application/json", #"{"a":1}"#),
            ("text", 200, "text/plain; charset=utf-8", "plain"),
            ("string", 201, "text/plain; charset=utf-8", "as text"),
            ("object", 202, "application/json", "[1,2]"),
            ("yaml", 200, "application/yaml", "name: \"Ada\"\ntags:\n  - \"a\"\n  - \"b\"\nnested:\n  n: 1\n"),
            ("file", 200, "text/html; charset=utf-8", "<p>hi</p>"),
            ("fileType", 200, "text/plain", "<p>hi</p>"),
            ("template", 200, "application/json", #"{"greeting": "hello Ada \"the\" first", "id": "template"}"#),
            ("noContent", 204, "x/global", ""),
            ("redirect", 307, "x/global", ""),
            ("ownType", 200, "application/vnd.x+json", "{}"),
            ("unauthorised", 401, "x/global", ""),
            ("unauthorized", 401, "application/json", #"{"error":"who"}"#),
            ("raw", 418, "text/plain; charset=utf-8", "teapot"),
        ] as [(String, Int, String, String)])
    func answers(_ kind: String, _ status: Int, _ type: String, _ body: String) async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.get("/answers/\(kind)")
        #expect(response.statusCode == status, "\(kind): \(response.text)")
        #expect(response.header("Content-Type") == type, "\(kind)")
        #expect(response.text == body, "\(kind)")
        #expect(response.header("X-Global") == "g")
        if kind == "redirect" { #expect(response.header("Location") == "/elsewhere") }
        if kind == "ownType" { #expect(response.headers(named: "Set-Cookie") == ["a=1", "b=2"]) }
        if kind == "string" { #expect(response.header("X-Made") == "yes") }
    }

    @Test(
        "Body.template sees what every template sees: the cache as the script left it, call, now, uuid, mockServer, the request, and the data given"
    )
    func templateContext() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        _ = try await server.client.get("/whoami/7")
        let response = try await server.client.get("/whoami/7")
        #expect(response.statusCode == 200, "\(response.text)")
        let parts = response.text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 8, "\(response.text)")
        #expect(parts[0] == "Ada" && parts[1] == "7")
        #expect(parts[2] == "2", "call \(parts[2])")
        #expect(
            parts[3].range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"#, options: .regularExpression) != nil,
            "now \(parts[3])")
        #expect(UUID(uuidString: parts[4]) != nil, "uuid \(parts[4])")
        #expect(parts[5] == "http://\(server.host):\(server.port)", "mockServer \(parts[5])")
        #expect(parts[6] == "/whoami/7" && parts[7] == "given")
    }

    @Test("Body.file never reads outside the requests folder")
    func fileOutside() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.get("/answers/outside")
        #expect(response.statusCode == 500)
        #expect(
            response.text.contains("outside the requests folder") || response.text.contains("does not exist"),
            "\(response.text)")
    }

    @Test("the cache: 100 parallel read-modify-writes lose no update; the admin API shows and empties it")
    func parallelCounter() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let batch = try await ParallelRequests.start(100, client: server.client, method: "POST", target: "/counter")
        let results = try await batch.results()
        let counts = try results.map { try $0.get() }.map { $0.text }
        #expect(Set(counts).count == 100, "every call saw its own count")
        let cache = try await server.client.get("/__espressomartini/cache")
        #expect(cache.text == #"{"n":100}"#)
        #expect(try await server.client.send("DELETE", "/__espressomartini/cache").statusCode == 204)
        #expect(try await server.client.send("POST", "/counter").text == #"{"n":1}"#)
    }

    @Test("the cache carries state from one request to the next: log in, then add to the cart")
    func statefulFlow() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let json = [("Content-Type", "application/json")]
        #expect(
            try await server.client.send(
                "POST", "/cart", headers: json, body: Array(#"{"id": "tea", "quantity": 1}"#.utf8)
            ).statusCode == 401)
        #expect(
            try await server.client.send("POST", "/login", headers: json, body: Array(#"{"user": "ada"}"#.utf8))
                .statusCode == 200)
        _ = try await server.client.send(
            "POST", "/cart", headers: json, body: Array(#"{"id": "tea", "quantity": 1}"#.utf8))
        let cart = try await server.client.send(
            "POST", "/cart", headers: json, body: Array(#"{"id": "tea", "quantity": 2}"#.utf8))
        #expect(cart.text == #"{"items":{"tea":3}}"#)
        #expect(try await server.client.get("/__espressomartini/cache").text == #"{"cart":{"tea":3},"token":"t-ada"}"#)
    }

    @Test("console.* writes to the server's log with the route")
    func console() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.get("/logs").statusCode == 200)
        let info = await server.waitForStandardErrorLine {
            $0.contains("INFO script /logs: hello {\"from\":\"script\"}")
        }
        #expect(info != nil, "\(server.standardError)")
        let warning = await server.waitForStandardErrorLine { $0.contains("WARNING script /logs: careful") }
        #expect(warning != nil, "\(server.standardError)")
    }

    @Test("many calls with large bodies: every answer is right while the engine collects garbage")
    func largeBodies() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        for call in 1...60 {
            let items = (0..<(500 + call)).map { #"{"name": "item \#($0)", "tags": ["a", "b"], "price": \#($0).5}"# }
                .joined(separator: ",")
            let response = try await server.client.send(
                "POST", "/count", headers: [("Content-Type", "application/json")],
                body: Array(#"{"items": [\#(items)]}"#.utf8)
            )
            #expect(response.text == #"{"n":\#(500 + call),"last":"item \#(499 + call)"}"#, "call \(call)")
        }
    }

    @Test("a script can be a sequence's step, a variant's answer, and wait out a delay")
    func placesOfScripts() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.get("/steps").text == "first")
        #expect(try await server.client.get("/steps").text == "then static")
        #expect(try await server.client.get("/chosen?js=1").text == "script 1")
        #expect(try await server.client.get("/chosen").text == "static")
        let started = ContinuousClock.now
        #expect(try await server.client.get("/delayed").text == "late")
        #expect(ContinuousClock.now - started >= .milliseconds(190))
    }
}
