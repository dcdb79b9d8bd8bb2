import Foundation
import Testing

/// Scripts written for Voodoo (github.com/drekka/Voodoo, whose dynamic endpoints espressomartini's scripts
/// follow) run here unchanged: what Voodoo's own JavaScript executor cases, integration cases and example
/// scripts check, written anew as scripts of one tree and sent through the real server. Where a case
/// meets a documented difference (doc/scripts.md, "Coming from Voodoo"), the test says so.
@Suite("scripts written for Voodoo")
struct VoodooScriptTests {
    /// `response(request, cache)` bodies as Voodoo's executor cases write them, one route each.
    static let cases: [String: String] = [
        // The request.
        "details": """
        console.log("components " + request.pathComponents);
        return Response.ok(Body.json({method: request.method, headers: request.headers, path: request.path,
            pathComponents: request.pathComponents, pathParameters: request.pathParameters, query: request.query,
            queryParameters: request.queryParameters, body: request.body,
            bodyAsVoodooReadsIt: String.fromCharCode.apply(null, new Uint8Array(request.body))}));
        """,
        "form":
            "return Response.ok(Body.json({formParameters: request.formParameters, field: request.formParameters.greeting}));",
        "bodyJSON": "return Response.ok(Body.json({body: request.bodyJSON}));",
        "header":
            "const value = request.headers.abc; console.log('abc: ' + value); return Response.ok(Body.text(value));",
        // Responses.
        "raw": "return Response.raw(201);",
        "rawText": #"return Response.raw(201, Body.text("Hello"));"#,
        "rawHeaders": #"return Response.raw(201, Body.text("Hello"), {abc: "123"});"#,
        "rawJSON": #"const object = {greeting: "Hello world!"}; return Response.raw(201, Body.json(object));"#,
        "ok": "return Response.ok();",
        "okHeaders": #"return Response.ok( Body.text("Hello"), {"abc": "123"});"#,
        "created": #"return Response.created( Body.text("Hello"));"#,
        "accepted": #"return Response.accepted( Body.text("Hello"), {"abc": "123"});"#,
        "moved": #"return Response.movedPermanently("http://127.0.0.1:8080");"#,
        "temporary": #"return Response.temporaryRedirect("http://127.0.0.1:8080");"#,
        "permanent": #"return Response.permanentRedirect("http://127.0.0.1:8080");"#,
        "notFound": "return Response.notFound();",
        "notAcceptable": "return Response.notAcceptable();",
        "tooMany": "return Response.tooManyRequests();",
        "serverError": #"return Response.internalServerError( Body.text("Hello"), {"abc": "123"});"#,
        // Bodies.
        "text": #"return Response.ok(Body.text("Hello"));"#,
        "textData": #"return Response.ok(Body.text("{{abc}}", {abc: "Hello"}));"#,
        "json": #"return Response.ok(Body.json({ abc: "Hello" }));"#,
        "jsonData": #"return Response.ok(Body.json( { abc: "{{abc}}" }, { abc: "Hello" } ));"#,
        "file": #"return Response.ok(Body.file("greeting.txt", "text/plain"));"#,
        "template": #"return Response.ok(Body.template("greeting", "text/plain"));"#,
        "templateData": #"return Response.ok(Body.template("greeting", "text/plain", {abc: "Hello"}));"#,
        // Failures.
        "noResponse": "",
        "notAResponse": #"return "abc";"#,
        "throws": #"throw "Error!!!!";"#,
        // The cache.
        "miss": #"return Response.ok(Body.text("Hello " + cache.abc));"#,
        "setString": #"cache.abc = "Hello world!"; return Response.ok();"#,
        "getString": "return Response.ok(Body.text(cache.abc));",
        "setNumber": "cache.abc = 123; return Response.ok();",
        "getNumber": "return Response.ok(Body.text(cache.abc.toString()));",
        "setObject": #"cache.abc = {def: "Hello world!"}; return Response.ok();"#,
        "getObject": "const abc = cache.abc; return Response.ok(Body.text(abc.def));",
        "setArray": #"cache.abc = [{def: "Hello world!"}, {def: "Goodbye world!"}]; return Response.ok();"#,
        "getFirst": "const array = cache.abc; return Response.ok(Body.text(array[0].def));",
        "getSecond": "const array = cache.abc; return Response.ok(Body.text(array[1].def));",
    ]

    static var exchanges: [String: TreeEntry] {
        var exchanges: [String: TreeEntry] = [:]
        for (name, body) in cases {
            let folder =
                name == "details"
                ? "voodoo/details/{first}/{second}/GET"
                : (["form", "bodyJSON"].contains(name) ? "voodoo/\(name)/POST" : "voodoo/\(name)/GET")
            exchanges["\(folder)/configuration.json"] = .text(#"{"javascript_file": "case.js"}"#)
            exchanges["\(folder)/case.js"] = .text("function response(request, cache) {\n    \(body)\n}\n")
        }
        exchanges["voodoo/file/GET/greeting.txt"] = "Hello from a file"
        // Voodoo finds a template by name in its templates folder; here a template is a file of the method folder.
        for name in ["template", "templateData"] { exchanges["voodoo/\(name)/GET/greeting"] = "{{abc}} template" }
        // Voodoo's integration cases: a text, no body, a function with too few or too many parameters.
        exchanges["integration/text/GET/configuration.json"] =
            #"{"javascript": "function response(request, cache) {\n    return Response.ok(Body.text(\"Hello world!\"));\n}"}"#
        exchanges["integration/few/GET/configuration.json"] =
            #"{"javascript": "function response() {\n    return Response.ok();\n}"}"#
        exchanges["integration/many/GET/configuration.json"] =
            #"{"javascript": "function response(a,b,c,d,e) {\n    return Response.ok();\n}"}"#
        exchanges["integration/undefined/GET/configuration.json"] =
            #"{"javascript": "function response(request, cache) {\n    return;\n}"}"#
        // Voodoo's example configurations: a log-in, a security token and a cart kept in the cache, books as templates.
        exchanges["login/POST/configuration.json"] = #"{"javascript_file": "login.js"}"#
        exchanges["login/POST/login.js"] = "function response(request, cache) {\n    return Response.ok()\n}\n"
        exchanges["security/login/POST/configuration.json"] = .text(#"{"javascript_file": "login.js"}"#)
        exchanges["security/login/POST/login.js"] = """
            function response(request, cache) {
              let token = "token-for-" + request.formParameters.user;
              console.log("Generated customer token for " + request.formParameters.user + ": " + token);
              cache.token = token;
              return Response.ok(Body.empty(), {
                userToken: token
              });
            }
            """
        exchanges["cart/POST/configuration.json"] = #"{"javascript_file": "addToCart.js"}"#
        exchanges["cart/POST/addToCart.js"] = """
            function response(request, cache) {
                // Only a user who logged in has a cart.
                if (cache.token == undefined) {
                    return Response.unauthorised();
                }
                let payload = request.bodyJSON;
                var cart = cache.cart ?? {};
                console.log("Adding " + payload.id + " to cart");
                var line = cart[payload.id];
                if (line == undefined) {
                    line = {price: payload.price, quantity: 0};
                }
                line.quantity = line.quantity + payload.quantity;
                cart[payload.id] = line;
                cache.cart = cart;
                return Response.ok();
            }
            """
        exchanges["cart/GET/configuration.json"] =
            #"{"javascript": "function response(request, cache) {\n  return Response.ok(Body.json(cache.cart ?? {}));\n}"}"#
        exchanges["book/{bookId}/GET/configuration.json"] = #"{"javascript_file": "book.js"}"#
        exchanges["book/{bookId}/GET/book.js"] = """
            function response(request, cache) {
              console.log("Book " + request.pathParameters.bookId + " requested");
              if (request.pathParameters.bookId == "1000-01") {
                return Response.ok(Body.template("book-1", "application/json"));
              } else if (request.pathParameters.bookId == "1000-02") {
                return Response.ok(Body.template("book-2", "application/json"));
              } else {
                return Response.notFound();
              }
            }
            """
        exchanges["book/{bookId}/GET/book-1"] =
            #"{"id": "{{request.pathParameters.bookId}}", "title": "The Player of Games"}"#
        exchanges["book/{bookId}/GET/book-2"] =
            #"{"id": "{{request.pathParameters.bookId}}", "title": "Use of Weapons"}"#
        return exchanges
    }

    static func serve() async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(exchanges: exchanges)
        return (tree, try await ServerProcess.serving(tree))
    }

    @Test(
        "the request: method, headers, path and its components and parameters, query and its parameters, form, JSON body"
    )
    func request() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let minimal = try #require(try await server.client.get("/voodoo/details/abc/def").json() as? [String: Any])
        #expect(minimal["method"] as? String == "GET")
        #expect(minimal["path"] as? String == "/voodoo/details/abc/def")
        #expect(minimal["pathComponents"] as? [String] == ["/", "voodoo", "details", "abc", "def"])
        #expect(minimal["pathParameters"] as? [String: String] == ["first": "abc", "second": "def"])
        #expect(minimal["query"] is NSNull)
        #expect(minimal["queryParameters"] as? [String: String] == [:])
        #expect(minimal["body"] is NSNull && minimal["bodyAsVoodooReadsIt"] as? String == "")

        let full = try await server.client.send(
            "GET", "/voodoo/details/p123/p456?q1=q123&q2=q123&q1=q456",
            headers: [("h1", "hxyz"), ("h2", "h123"), ("h2", "h456")],
            body: Array("Hello world!".utf8)
        )
        let object = try #require(try full.json() as? [String: Any], "\(full.text)")
        let headers = try #require(object["headers"] as? [String: Any])
        #expect(headers["h1"] as? String == "hxyz")
        #expect(headers["h2"] as? [String] == ["h123", "h456"])
        #expect(object["query"] as? String == "q1=q123&q2=q123&q1=q456")
        let query = try #require(object["queryParameters"] as? [String: Any])
        #expect(query["q1"] as? [String] == ["q123", "q456"])
        #expect(query["q2"] as? String == "q123")
        // A documented difference: Voodoo's request.body is an ArrayBuffer, here it is the text.
        #expect(object["body"] as? String == "Hello world!")
        #expect(object["bodyAsVoodooReadsIt"] as? String == "")

        let form = try await server.client.send(
            "POST", "/voodoo/form", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("greeting=Hello%20world!".utf8)
        )
        let formObject = try #require(try form.json() as? [String: Any])
        #expect(formObject["formParameters"] as? [String: String] == ["greeting": "Hello world!"])
        #expect(formObject["field"] as? String == "Hello world!")

        let json = try await server.client.send(
            "POST", "/voodoo/bodyJSON", headers: [("Content-Type", "application/json")],
            body: Array(#"{"abc":"def"}"#.utf8))
        #expect(json.text == #"{"body":{"abc":"def"}}"#)

        let header = try await server.client.send("GET", "/voodoo/header", headers: [("abc", "123")])
        #expect(header.text == "123")
        #expect(header.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(await server.waitForStandardErrorLine { $0.contains("INFO script /voodoo/header: abc: 123") } != nil)
    }

    @Test(
        "Response: the status, the body and the headers of every kind Voodoo's cases use",
        arguments: [
            ("raw", 201, "", nil, nil), ("rawText", 201, "Hello", "text/plain; charset=utf-8", nil),
            ("rawHeaders", 201, "Hello", "text/plain; charset=utf-8", "123"),
            ("rawJSON", 201, #"{"greeting":"Hello world!"}"#, "application/json", nil), ("ok", 200, "", nil, nil),
            ("okHeaders", 200, "Hello", "text/plain; charset=utf-8", "123"),
            ("created", 201, "Hello", "text/plain; charset=utf-8", nil),
            ("accepted", 202, "Hello", "text/plain; charset=utf-8", "123"), ("moved", 301, "", nil, nil),
            ("temporary", 307, "", nil, nil),
            ("permanent", 308, "", nil, nil), ("notFound", 404, "", nil, nil), ("notAcceptable", 406, "", nil, nil),
            ("tooMany", 429, "", nil, nil),
            ("serverError", 500, "Hello", "text/plain; charset=utf-8", "123"),
        ] as [(String, Int, String, String?, String?)])
    func responses(_ name: String, _ status: Int, _ body: String, _ type: String?, _ abc: String?) async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.get("/voodoo/\(name)")
        #expect(response.statusCode == status, "\(name): \(response.text)")
        #expect(response.text == body, "\(name)")
        #expect(response.header("Content-Type") == type, "\(name)")
        #expect(response.header("abc") == abc, "\(name)")
        if [301, 307, 308].contains(status) { #expect(response.header("Location") == "http://127.0.0.1:8080") }
    }

    @Test(
        "Body: text and JSON, with template data or without, a file, a template by name with data or without",
        arguments: [
            ("text", "Hello", "text/plain; charset=utf-8"), ("textData", "Hello", "text/plain; charset=utf-8"),
            ("json", #"{"abc":"Hello"}"#, "application/json"), ("jsonData", #"{"abc":"Hello"}"#, "application/json"),
            ("file", "Hello from a file", "text/plain"), ("template", " template", "text/plain"),
            ("templateData", "Hello template", "text/plain"),
        ])
    func bodies(_ name: String, _ body: String, _ type: String) async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.get("/voodoo/\(name)")
        #expect(response.statusCode == 200, "\(name): \(response.text)")
        #expect(response.text == body, "\(name)")
        #expect(response.header("Content-Type") == type, "\(name)")
    }

    @Test(
        "failures are 500s: no response, a value that is not a Response, a thrown string; too few or too many parameters are fine"
    )
    func failures() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        for (path, message) in [
            (
                "/voodoo/noResponse",
                "must return a Response such as Response.ok(Body.json({...})), but it returned undefined"
            ),
            ("/integration/undefined", "but it returned undefined"),
            ("/voodoo/notAResponse", "but it returned a string"),
            ("/voodoo/throws", #"the script threw "Error!!!!""#),
        ] {
            let response = try await server.client.get(path)
            #expect(response.statusCode == 500, "\(path)")
            let error = (try response.json() as? [String: Any])?["error"] as? String
            #expect(error?.contains(message) == true, "\(path): \(response.text)")
        }
        #expect(try await server.client.get("/integration/few").statusCode == 200)
        #expect(try await server.client.get("/integration/many").statusCode == 200)
        let text = try await server.client.get("/integration/text")
        #expect(text.text == "Hello world!" && text.header("Content-Type") == "text/plain; charset=utf-8")
    }

    @Test(
        "the cache: a missing key reads null; strings, numbers, objects and arrays are kept from one call to the next")
    func cache() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.get("/voodoo/miss").text == "Hello null")
        for (set, gets) in [
            ("setString", [("getString", "Hello world!")]), ("setNumber", [("getNumber", "123")]),
            ("setObject", [("getObject", "Hello world!")]),
            ("setArray", [("getFirst", "Hello world!"), ("getSecond", "Goodbye world!")]),
        ] {
            let stored = try await server.client.get("/voodoo/\(set)")
            #expect(stored.statusCode == 200 && stored.text.isEmpty, "\(set)")
            for (get, expected) in gets {
                let read = try await server.client.get("/voodoo/\(get)")
                #expect(read.text == expected, "\(get): \(read.text)")
                #expect(read.header("Content-Type") == "text/plain; charset=utf-8")
            }
        }
    }

    @Test("Voodoo's example endpoints: a log-in, a token and a cart kept in the cache, books answered with templates")
    func examples() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.send("POST", "/login").statusCode == 200)
        let json = [("Content-Type", "application/json")]
        #expect(
            try await server.client.send(
                "POST", "/cart", headers: json, body: Array(#"{"id": "b1", "price": 25, "quantity": 1}"#.utf8)
            ).statusCode == 401)
        let login = try await server.client.send(
            "POST", "/security/login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: Array("user=derek".utf8))
        #expect(login.statusCode == 200 && login.text.isEmpty)
        #expect(login.header("userToken") == "token-for-derek")
        for quantity in [1, 2] {
            let added = try await server.client.send(
                "POST", "/cart", headers: json,
                body: Array(#"{"id": "b1", "price": 25, "quantity": \#(quantity)}"#.utf8))
            #expect(added.statusCode == 200, "\(added.text)")
        }
        #expect(try await server.client.get("/cart").text == #"{"b1":{"price":25,"quantity":3}}"#)
        #expect(await server.waitForStandardErrorLine { $0.contains("INFO script /cart: Adding b1 to cart") } != nil)
        let book = try await server.client.get("/book/1000-02")
        #expect(book.text == #"{"id": "1000-02", "title": "Use of Weapons"}"#)
        #expect(book.header("Content-Type") == "application/json")
        #expect(try await server.client.get("/book/9").statusCode == 404)
    }
}
