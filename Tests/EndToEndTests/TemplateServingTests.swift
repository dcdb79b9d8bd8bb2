import Foundation
import Testing

/// doc/templates.md on the wire: templated responses rendered by the real binary, their escaping proven with hostile
/// request values (the JSON answer is parsed to check it), files, headers, `call`, `mockServer`, `cache`.
@Suite("templates")
struct TemplateServingTests {
    static let echo = #"""
        {"template": true, "headers": {"X-Echo-Path": "{{request.pathParameters.name}}"},
         "body": {"name": "{{request.pathParameters.name}}", "q": "{{request.queryParameters.q}}", "value": "{{request.headers.x-value}}",
                  "body": "{{request.body}}", "json": "{{request.bodyJSON.v}}", "object": "{{request.bodyJSON}}", "method": "{{request.method}}"}}
        """#

    static func echoTree() throws -> TemporaryTree {
        try TemporaryTree(exchanges: ["echo/{name}/POST/configuration.json": .text(Self.echo)])
    }

    /// A request written byte for byte, so that a header may carry bytes that are not UTF-8.
    static func rawRequest(_ server: ServerProcess, target: String, headerValue: [UInt8], body: [UInt8]) -> [UInt8] {
        var bytes = Array("POST \(target) HTTP/1.1\r\nHost: \(server.client.authority)\r\nX-Value: ".utf8) + headerValue
        bytes += Array("\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        return bytes
    }

    struct Hostile: Sendable, CustomTestStringConvertible {
        let testDescription: String
        /// Percent-encoded into the path and the query.
        let encoded: String
        let decoded: String
        let headerValue: [UInt8]
        let body: [UInt8]
    }

    static let hostile: [Hostile] = [
        Hostile(
            testDescription: "quotes and backslashes", encoded: "%22%5C%22a%5C", decoded: "\"\\\"a\\",
            headerValue: Array(#""\"\\ x"#.utf8), body: Array(#"{"v": "\"}\\"}"#.utf8)),
        Hostile(
            testDescription: "control characters", encoded: "a%0Ab%09c%01%1F%7F", decoded: "a\nb\tc\u{01}\u{1F}\u{7F}",
            headerValue: [0x61, 0x09, 0x62, 0x7F], body: [0x00, 0x0A, 0x0D, 0x08, 0x0C, 0x1B]),
        Hostile(
            testDescription: "invalid UTF-8", encoded: "%FF%C3(%E2%82", decoded: "\u{FFFD}\u{FFFD}(\u{FFFD}",
            headerValue: [0xFF, 0xFE, 0xC3, 0x28], body: [0x7B, 0x22, 0x76, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]),
        Hostile(
            testDescription: "template syntax is data", encoded: "%7B%7Bcall%7D%7D", decoded: "{{call}}",
            headerValue: Array("{{{uuid}}}".utf8), body: Array(#"{"v": "{{now}}"}"#.utf8)),
        Hostile(
            testDescription: "JSON structure in a value", encoded: "%22%2C%22x%22%3A%7B%7D%2C%22",
            decoded: "\",\"x\":{},\"", headerValue: Array("\"]}".utf8), body: Array(#"{"v": {"a": [1, "\""]}}"#.utf8)),
    ]

    @Test("hostile request values keep the JSON answer valid and come back as sent", arguments: hostile)
    func hostileValues(_ value: Hostile) async throws {
        let tree = try Self.echoTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let raw = try await server.client.sendRaw(
            Self.rawRequest(
                server, target: "/echo/\(value.encoded)?q=\(value.encoded)", headerValue: value.headerValue,
                body: value.body
            ))
        let response = try HTTPResponse(raw: raw)
        #expect(response.statusCode == 200)
        #expect(response.header("Content-Type") == "application/json")
        let object = try #require(try response.json() as? [String: Any], "not a JSON object: \(response.text)")
        #expect(object["name"] as? String == value.decoded)
        #expect(object["q"] as? String == value.decoded)
        #expect(object["value"] as? String == String(decoding: value.headerValue, as: UTF8.self))
        #expect(object["body"] as? String == String(decoding: value.body, as: UTF8.self))
        #expect(object["method"] as? String == "POST")
        // A header value never carries a line break from the request.
        #expect(response.header("X-Echo-Path")?.contains("\n") == false)
    }

    @Test("a 1 MiB body is echoed into valid JSON; a 1 MiB header is refused with 431 and the server goes on")
    func largeValues() async throws {
        let tree = try Self.echoTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        var client = server.client
        client.timeout = 20
        let body = (0..<(1024 * 1024)).map { index in
            [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0xFF, UInt8(ascii: "a")][index % 5]
        }
        let response = try await client.send("POST", "/echo/big", body: body)
        #expect(response.statusCode == 200)
        let object = try #require(try response.json() as? [String: Any])
        #expect(object["body"] as? String == String(decoding: body, as: UTF8.self))

        let big = String(repeating: "\"", count: 1024 * 1024)
        let refused = try await client.send("POST", "/echo/big", headers: [("X-Value", big)])
        #expect(refused.statusCode == 431)
        let after = try await server.client.send("POST", "/echo/small", body: Array(#"{"v": 1}"#.utf8))
        #expect(after.statusCode == 200)
        #expect((try after.json() as? [String: Any])?["json"] as? String == "1")
    }

    @Test("an order gets the id from its path in its body and its Location, and call counts its calls")
    func orderAndCall() async throws {
        let tree = try TemporaryTree(exchanges: [
            "orders/{id}/PUT/configuration.json": #"""
            {"template": true, "status_code": 201, "headers": {"Location": "/orders/{{request.pathParameters.id}}", "X-Call": "{{call}}"},
             "body": {"id": "{{request.pathParameters.id}}", "call": "{{call}}", "at": "{{now}}", "uuid": "{{uuid}}"}}
            """#
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        var uuids: Set<String> = []
        for call in 1...3 {
            let response = try await server.client.send("PUT", "/orders/A-\(call)")
            #expect(response.statusCode == 201)
            #expect(response.header("Location") == "/orders/A-\(call)")
            #expect(response.header("X-Call") == "\(call)")
            let object = try #require(try response.json() as? [String: String])
            #expect(object["id"] == "A-\(call)")
            #expect(object["call"] == "\(call)")
            #expect(object["at"]?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil)
            uuids.insert(object["uuid"] ?? "")
        }
        #expect(uuids.count == 3)
    }

    @Test(
        "a response_file template is read once per tree and HTML-escaped by its type; mockServer is the real address; an empty cache renders nothing"
    )
    func fileTemplate() async throws {
        let tree = try TemporaryTree(
            exchanges: [
                "page/GET/configuration.json": #"{"template": true, "response_file": "page.html"}"#,
                "page/GET/page.html":
                    "<h1>{{request.queryParameters.name}}</h1>\n<a href=\"{{mockServer}}/page\">{{{request.queryParameters.name}}}</a>{{cache.user}}\n",
            ], configuration: #"{"watch": false}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.get("/page?name=%3Cb%3E%26%22")
        #expect(response.statusCode == 200)
        #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
        #expect(
            response.text
                == "<h1>&lt;b&gt;&amp;&quot;</h1>\n<a href=\"http://127.0.0.1:\(server.port)/page\"><b>&\"</a>\n")
        #expect(response.contentLength == response.body.count)
        try tree.write("changed {{request.path}}", at: "network-exchanges/page/GET/page.html")
        let again = try await server.client.get("/page?name=x")
        #expect(again.text == "<h1>x</h1>\n<a href=\"http://127.0.0.1:\(server.port)/page\">x</a>\n")
        let cache = try await server.client.get("/__espressomartini/cache")
        #expect(cache.text == "{}")
    }

    @Test(
        "a reload that brings a template that does not parse is refused with its position, and the old template serves on"
    )
    func brokenTemplateOnReload() async throws {
        let tree = try TemporaryTree(
            exchanges: [
                "hi/{name}/GET/configuration.json": #"{"template": true, "body": "hi {{request.pathParameters.name}}"}"#
            ],
            configuration: #"{"watch": false}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/hi/ada").text == "hi ada")
        try tree.write(
            #"{"template": true, "body": "bye {{/name}}"}"#, at: "network-exchanges/hi/{name}/GET/configuration.json")
        let failed = try await server.client.send("POST", "/__espressomartini/reload")
        #expect(failed.statusCode == 422)
        let errors = try #require((try failed.json() as? [String: Any])?["errors"] as? [String])
        #expect(errors.count == 1)
        #expect(
            errors.first?.hasSuffix(
                "network-exchanges/hi/{name}/GET/configuration.json:1:33: error: the template does not parse: `{{/name}}` closes no open section: remove it, or open the section before with `{{#name}}`"
            ) == true, "\(errors)")
        #expect(try await server.client.get("/hi/bo").text == "hi bo")
    }

    @Test("a template that does not parse stops the start with its file, line and column")
    func brokenTemplate() async throws {
        let tree = try TemporaryTree(exchanges: [
            "a/GET/configuration.json": "{\"template\": true,\n \"body\": \"x {{#open}}\"}"
        ])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["run", "--port", "0"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(
            outcome.standardErrorLines.contains {
                $0.hasPrefix(
                    "network-exchanges/a/GET/configuration.json:2:13: error: the template does not parse: section `open` is never closed"
                )
            }, "\(outcome)")
    }
}
