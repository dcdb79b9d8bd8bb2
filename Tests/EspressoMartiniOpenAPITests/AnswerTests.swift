import EspressoMartini
@testable import EspressoMartiniOpenAPI
import Testing

/// Which answer a request gets, as variants on `Prefer`, and the routes and bodies of the exchanges.
@Suite struct AnswerTests {
    /// Each variant as `when → status`: `code=404,example=x → 404`, `code=404 → 404`, `example=x → 200`, `- → 200`.
    static func summary(_ exchange: ExchangeDraft) -> [String] {
        switch exchange.answers {
        case .responses(let responses, _): return responses.map { "- → \($0.statusCode)" }
        case .variants(let variants):
            return variants.map { variant in
                let wanted: String
                if case .string(let pattern)? = variant.when?.member("headers")?.member("Prefer")?.member("regex") {
                    let code = pattern.firstMatch(of: /code\\s\*=\\s\*"\?(\d+)/).map { "code=" + $0.1 }
                    let example = pattern.firstMatch(of: /example\\s\*=\\s\*"\?(\w+)/).map { "example=" + $0.1 }
                    wanted = [code, example].compactMap { $0 }.joined(separator: ",")
                } else {
                    wanted = "-"
                }
                return "\(wanted) → \(variant.responses[0].statusCode)"
            }
        }
    }

    static func responses(_ yaml: String) -> String {
        """
        openapi: 3.0.3
        info: {title: t, version: "1"}
        paths:
          /a:
            get:
              responses:
        \(yaml.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
        """
    }

    @Test("the lowest 2xx by default; code and example variants in order of precedence")
    func precedence() throws {
        let text = Self.responses(
            """
            "404": {description: x, content: {application/json: {examples: {gone: {value: {g: 1}}}}}}
            "201": {description: x, content: {application/json: {examples: {one: {value: 1}, two: {value: 2}}}}}
            "200": {description: x}
            "503": {description: x}
            """)
        try DescriptionFixture.draft(text) { drafted throws in
            #expect(
                Self.summary(drafted.exchanges[0]) == [
                    "code=201,example=one → 201", "code=201,example=two → 201", "code=404,example=gone → 404",
                    "code=201 → 201", "code=404 → 404", "code=503 → 503", "- → 200",
                ])
        }
    }

    @Test("default answers the listed statuses not documented; alone it answers 200")
    func defaultResponse() throws {
        try DescriptionFixture.draft(Self.responses("default: {description: x}\n\"404\": {description: y}")) {
            drafted throws in
            #expect(
                Self.summary(drafted.exchanges[0]) == [
                    "code=400 → 400", "code=401 → 401", "code=403 → 403", "code=404 → 404", "code=409 → 409",
                    "code=422 → 422", "code=429 → 429",
                    "code=500 → 500", "code=502 → 502", "code=503 → 503", "code=504 → 504", "- → 200",
                ])
        }
    }

    @Test("no 2xx and no default: the lowest status; a 4XX range as 400; 1xx left out")
    func others() throws {
        try DescriptionFixture.draft(
            Self.responses("\"302\": {description: x}\n4XX: {description: y}\n\"101\": {description: z}")
        ) { drafted throws in
            #expect(Self.summary(drafted.exchanges[0]) == ["code=400 → 400", "- → 302"])
            #expect(
                DescriptionFixture.warnings(drafted) == [
                    "api.yaml: warning: at /paths/~1a/get/responses/101: a mock cannot answer with status 101; this response is left out"
                ])
        }
    }

    @Test("no responses at all: 200 without a body")
    func noResponses() throws {
        try DescriptionFixture.draft("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get: {}\n") {
            drafted throws in
            #expect(Self.summary(drafted.exchanges[0]) == ["- → 200"])
            #expect(try DescriptionFixture.defaultAnswer(drafted).body == nil)
        }
    }

    @Test("routes: the server's path with its variables, {name} folders, and a segment mixing text and a parameter")
    func routes() throws {
        let text = """
            openapi: 3.0.3
            info: {title: t, version: "1"}
            servers:
              - url: "{scheme}://api.example.com:8443/{base}/v1?x=1"
                variables: {scheme: {default: https}, base: {default: shop, enum: [shop, store]}}
            paths:
              /pets/{petId}/photo.{format}:
                get: {responses: {"200": {description: x}}}
              /pets/{id}/photo.{kind}:
                get: {responses: {"200": {description: x}}}
              /orders:
                servers: [{url: /other}]
                post: {responses: {"200": {description: x}}}
              /caf%C3%A9/GET:
                delete: {responses: {"200": {description: x}}}
            """
        try DescriptionFixture.draft(text) { drafted throws in
            #expect(drafted.exchanges.map(\.method) == [.get, .post, .delete])
            #expect(
                drafted.exchanges.map(\.path) == [
                    [.literal("shop"), .literal("v1"), .literal("pets"), .parameter("petId"), .parameter("format")],
                    [.literal("other"), .literal("orders")],
                    [.literal("shop"), .literal("v1"), .literal("café"), .literal("GET")],
                ])
            #expect(
                DescriptionFixture.warnings(drafted) == [
                    "api.yaml: warning: at /paths/~1pets~1{petId}~1photo.{format}/get: the segment 'photo.{format}' is matched as a whole by the parameter {format}: a folder matches whole segments",
                    "api.yaml: warning: at /paths/~1pets~1{id}~1photo.{kind}/get: the segment 'photo.{kind}' is matched as a whole by the parameter {kind}: a folder matches whole segments",
                    "api.yaml: warning: at /paths/~1pets~1{id}~1photo.{kind}/get: GET /pets/{id}/photo.{kind} matches the same requests as GET /pets/{petId}/photo.{format}, imported before it; it is left out",
                ])
        }
    }

    @Test("Swagger 2.0: basePath, produces, examples by media type, x-example headers")
    func swagger() throws {
        let text = """
            swagger: "2.0"
            info: {title: t, version: "1"}
            basePath: /api
            produces: [application/xml]
            paths:
              /status:
                get:
                  produces: [application/vnd.status+json]
                  responses:
                    "200":
                      description: x
                      headers: {X-Version: {type: string, x-example: "2.1"}}
                      schema: {type: object, properties: {ok: {type: boolean}}}
                      examples: {application/vnd.status+json: {ok: false}}
              /report:
                get:
                  responses:
                    "200": {description: x, schema: {type: string}}
            """
        try DescriptionFixture.draft(text) { drafted throws in
            let status = drafted.exchanges[0]
            guard case .responses(let responses, _) = status.answers else { Issue.record("\(status.answers)"); return }
            #expect(status.path == [.literal("api"), .literal("status")])
            #expect(
                responses[0].headers == [
                    HTTPHeader(name: "Content-Type", value: "application/vnd.status+json"),
                    HTTPHeader(name: "X-Version", value: "2.1"),
                ])
            #expect(try DescriptionFixture.json(responses[0].body)?.compactText == #"{"ok":false}"#)
            #expect(
                DescriptionFixture.warnings(drafted) == [
                    "api.yaml: warning: at /paths/~1report/get/responses/200/schema: GET /report: a body of 'application/xml' cannot be generated; it is answered with its Content-Type and no body (put a file beside configuration.json and name it in response_file, or give a string example)"
                ])
        }
    }

    @Test("text examples become text files with the media type's extension; JSON written in a string is JSON")
    func textBodies() throws {
        let text = Self.responses(
            """
            "200": {description: x, content: {text/csv: {example: "a,b\\n1,2\\n"}, application/xml: {example: "<a/>"}}}
            "201": {description: x, content: {application/json: {example: '{"id": 4}'}}}
            "202": {description: x, content: {application/json: {schema: {type: string}, example: '{"id": 4}'}}}
            """)
        try DescriptionFixture.draft(text) { drafted throws in
            guard case .variants(let variants) = drafted.exchanges[0].answers else {
                Issue.record("no variants"); return
            }
            let bodies = variants.map(\.responses[0].body)
            #expect(bodies.last == .bytes(Array("a,b\n1,2\n".utf8), fileExtension: "csv"))
            #expect(try DescriptionFixture.json(bodies[0])?.compactText == #"{"id":4}"#)
            #expect(try DescriptionFixture.json(bodies[1])?.compactText == #""{\"id\": 4}""#)
        }
    }

    @Test("media types a response is not answered in: one warning each, at the first, with how many more")
    func mediaTypesNotServed() throws {
        let text = Self.responses(
            """
            "200": {description: x, content: {application/xml: {example: "<a/>"}, application/json: {example: {a: 1}}}}
            "404": {description: x, content: {application/xml: {example: "<b/>"}, text/plain: {example: gone}}}
            "500": {description: x, content: {image/png: {schema: {type: string, format: binary}}}}
            """)
        try DescriptionFixture.draft(text) { drafted throws in
            #expect(
                DescriptionFixture.warnings(drafted) == [
                    "api.yaml: warning: at /paths/~1a/get/responses/500/content/image~1png: GET /a: a body of 'image/png' cannot be generated; it is answered with its Content-Type and no body (put a file beside configuration.json and name it in response_file, or give a string example)",
                    "api.yaml: warning: at /paths/~1a/get/responses/200/content/application~1xml: 'application/xml' is not served here and in 1 other response: a response is answered in one media type (its first JSON one, else text/*, else JSON lines or YAML, else any other)",
                ])
        }
    }

    @Test("$refs to relative files, resolved from the file they are in")
    func relativeFiles() throws {
        let text = DescriptionFixture.schemaDescription("$ref: 'schemas/pet.yaml#/Pet'")
        let files = [
            "schemas/pet.yaml":
                "Pet: {type: object, properties: {name: {type: string, example: Rex}, owner: {$ref: '../common/person.json'}}}\n",
            "common/person.json": #"{"type": "object", "properties": {"name": {"type": "string", "default": "Ada"}}}"#,
        ]
        try DescriptionFixture.draft(text, files: files) { drafted throws in
            #expect(DescriptionFixture.warnings(drafted) == [])
            #expect(
                try DescriptionFixture.defaultAnswer(drafted).body?.compactText
                    == #"{"name":"Rex","owner":{"name":"Ada"}}"#)
        }
    }
}
