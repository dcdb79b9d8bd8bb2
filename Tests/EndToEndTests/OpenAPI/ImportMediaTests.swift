import Foundation
import Testing

/// `import openapi` on responses in media that are neither JSON nor text: each is answered with its
/// `Content-Type`; JSON lines and YAML with a body made from the schema, a string example as its text, and
/// the others (PDF, archives, images, octet streams) with no body and a warning naming the operation.
@Suite("import openapi: JSON lines, YAML and other media")
struct ImportMediaTests {
    /// What `GET path` answers: its `Content-Type` and its body.
    static let answers: [(path: String, contentType: String, body: String)] = [
        ("/report", "application/pdf", ""),
        ("/archive", "application/x-tar", ""),
        ("/logo", "image/png", ""),
        ("/blob", "application/octet-stream", ""),
        ("/blob/given", "application/octet-stream", "raw bytes\n"),
        ("/feed", "application/xml", "<feed/>"),
        ("/events", "application/x-ndjson", "{\"id\":0,\"kind\":\"created\"}\n{\"id\":1,\"kind\":\"deleted\"}\n"),
        ("/event", "application/jsonl", "{\"id\":0,\"at\":\"2024-01-01T09:30:00Z\"}\n"),
        ("/lines/given", "application/jsonl", "{\"a\":1}\n{\"a\":2}\n"),
        (
            "/settings", "application/yaml",
            """
            name: string
            "on": "yes"
            since: "2024-01-01"
            limit: 0
            tags:
              - string
            owners:
              - email: user@example.com
                admin: true

            """
        ),
        ("/settings/x", "application/x-yaml", "id: 0\n"),
        ("/settings/text", "text/yaml", "as: written\n"),
    ]

    @Test("each is answered with its Content-Type, and with the body made where one can be")
    func answered() async throws {
        let work = try TemporaryTree(files: ["api.yaml": .text(Self.description)])
        defer { work.remove() }
        let imported = try await OpenAPIFixtures.importing("api.yaml", in: work.url)
        #expect(imported.exitCode == 0, "\(imported)")
        let server = try await ServerProcess.start(["run", "--requests-folder", "tree", "--port", "0"], in: work.url)
        defer { server.stop() }
        for answer in Self.answers {
            let response = try await server.client.get(answer.path)
            #expect(response.statusCode == 200, "\(answer.path)")
            #expect(response.header("Content-Type") == answer.contentType, "\(answer.path): \(response.headers)")
            #expect(String(decoding: response.body, as: UTF8.self) == answer.body, "\(answer.path)")
        }
    }

    @Test("a warning names each operation answered without a body, and each example that cannot be its body")
    func warnings() async throws {
        let work = try TemporaryTree(files: ["api.yaml": .text(Self.description)])
        defer { work.remove() }
        let imported = try await OpenAPIFixtures.importing("api.yaml", in: work.url)
        #expect(imported.exitCode == 0, "\(imported)")
        #expect(imported.standardOutput == "imported 12 operations into tree\n")
        let advice =
            "it is answered with its Content-Type and no body (put a file beside configuration.json and name it in response_file, or give a string example)"
        #expect(
            imported.standardErrorLines == [
                "api.yaml: warning: at /paths/~1report/get/responses/200/content/application~1pdf: GET /report: a body of 'application/pdf' cannot be generated; \(advice)",
                "api.yaml: warning: at /paths/~1archive/get/responses/200/content/application~1x-tar: GET /archive: a body of 'application/x-tar' cannot be generated; \(advice)",
                "api.yaml: warning: at /paths/~1logo/get/responses/200/content/image~1png: GET /logo: a body of 'image/png' cannot be generated; \(advice)",
                "api.yaml: warning: at /paths/~1blob/get/responses/200/content/application~1octet-stream: GET /blob: a body of 'application/octet-stream' cannot be generated; \(advice)",
                "api.yaml: warning: at /paths/~1feed/get/responses/200/content/application~1xml/examples/parsed/value: the example 'parsed' is an object, and a body of 'application/xml' can only be given as a string; it is left out",
                "espressomartini: 5 warnings",
            ], "\(imported)")
        let listed = try await ServerProcess.runToCompletion(["endpoints", "--requests-folder", "tree"], in: work.url)
        #expect(listed.exitCode == 0 && listed.standardError.isEmpty, "the tree does not load cleanly: \(listed)")
    }

    @Test(
        "Stripe's quote PDF: answered as application/pdf without a body, with a warning naming the operation",
        .enabled(if: OpenAPIFixtures.publicDescription("stripe-spec3.yaml") != nil, "no ../shared/data/openapi-public"))
    func stripePDF() async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let spec = try #require(OpenAPIFixtures.publicDescription("stripe-spec3.yaml"))
        let imported = try await OpenAPIFixtures.importing(spec, in: work.url)
        #expect(imported.exitCode == 0, "\(imported)")
        #expect(
            imported.standardErrorLines.contains(
                "\(spec): warning: at /paths/~1v1~1quotes~1{quote}~1pdf/get/responses/200/content/application~1pdf: GET /v1/quotes/{quote}/pdf: a body of 'application/pdf' cannot be generated; it is answered with its Content-Type and no body (put a file beside configuration.json and name it in response_file, or give a string example)"
            ), "\(imported)")
        let server = try await ServerProcess.start(
            ["run", "--requests-folder", "tree", "--port", "0", "--log-level", "WARNING"], in: work.url)
        defer { server.stop() }
        let pdf = try await server.client.get("/v1/quotes/qt_1/pdf")
        #expect(pdf.statusCode == 200 && pdf.body.isEmpty)
        #expect(pdf.header("Content-Type") == "application/pdf", "\(pdf.headers)")
    }

    static let description = """
        openapi: 3.0.3
        info: {title: Media, version: "1"}
        paths:
          /report:
            get:
              responses:
                "200":
                  description: a PDF
                  content:
                    application/pdf:
                      schema: {type: string, format: binary}
          /archive:
            get:
              responses:
                "200":
                  description: a tar archive, nothing said of it
                  content:
                    application/x-tar: {}
          /logo:
            get:
              responses:
                "200":
                  description: an image
                  content:
                    image/png:
                      schema: {type: string, format: binary}
          /blob:
            get:
              responses:
                "200":
                  description: bytes
                  content:
                    application/octet-stream:
                      schema: {type: string, format: binary}
          /blob/given:
            get:
              responses:
                "200":
                  description: bytes with an example
                  content:
                    application/octet-stream:
                      schema: {type: string, format: binary}
                      example: "raw bytes\\n"
          /feed:
            get:
              responses:
                "200":
                  description: XML, its example as text
                  content:
                    application/xml:
                      schema: {type: object}
                      examples:
                        parsed:
                          value: {feed: []}
                        written:
                          value: "<feed/>"
          /events:
            get:
              responses:
                "200":
                  description: a JSON-lines feed, one line per item
                  content:
                    application/x-ndjson:
                      schema:
                        type: array
                        minItems: 2
                        uniqueItems: true
                        items:
                          type: object
                          properties:
                            id: {type: integer}
                            kind: {type: string, enum: [created, deleted]}
          /event:
            get:
              responses:
                "200":
                  description: JSON lines of one value
                  content:
                    application/jsonl:
                      schema:
                        type: object
                        properties:
                          id: {type: integer}
                          at: {type: string, format: date-time}
          /lines/given:
            get:
              responses:
                "200":
                  description: JSON lines written in the example
                  content:
                    application/jsonl:
                      schema: {type: object, properties: {a: {type: integer}}}
                      example: "{\\"a\\":1}\\n{\\"a\\":2}\\n"
          /settings:
            get:
              responses:
                "200":
                  description: YAML, with strings YAML would misread
                  content:
                    application/yaml:
                      schema:
                        type: object
                        properties:
                          name: {type: string}
                          "on": {type: string, enum: ["yes"]}
                          since: {type: string, format: date}
                          limit: {type: integer}
                          tags: {type: array, items: {type: string}}
                          owners:
                            type: array
                            items:
                              type: object
                              properties:
                                email: {type: string, format: email}
                                admin: {type: boolean}
          /settings/x:
            get:
              responses:
                "200":
                  description: YAML by its other name
                  content:
                    application/x-yaml:
                      schema: {type: object, properties: {id: {type: integer}}}
          /settings/text:
            get:
              responses:
                "200":
                  description: YAML written in the example
                  content:
                    text/yaml:
                      schema: {type: object}
                      example: "as: written\\n"

        """
}
