import Foundation
import Testing

/// `import openapi` on integers beyond 64 bits (read as doubles): written as whole numbers without an
/// exponent, in bodies, YAML bodies and headers, so that the answer holds an integer.
@Suite("import openapi: integers beyond 64 bits")
struct ImportBigNumberTests {
    @Test("an integer example and generated bounds beyond 64 bits are answered as integers, without an exponent")
    func bigIntegers() async throws {
        let work = try TemporaryTree(files: ["api.yaml": .text(Self.yaml), "api.json": .text(Self.json)])
        defer { work.remove() }
        let imported = try await OpenAPIFixtures.importing("api.yaml", in: work.url)
        #expect(imported.exitCode == 0 && imported.standardError.isEmpty, "\(imported)")
        let importedJSON = try await OpenAPIFixtures.importing("api.json", into: "json", in: work.url)
        #expect(importedJSON.exitCode == 0 && importedJSON.standardError.isEmpty, "\(importedJSON)")

        let server = try await ServerProcess.start(["run", "--requests-folder", "tree", "--port", "0"], in: work.url)
        defer { server.stop() }
        let counts = try await server.client.get("/counts")
        #expect(
            String(decoding: counts.body, as: UTF8.self) == """
                {
                  "given": 12345678901234567000,
                  "atLeast": 100000000000000000000,
                  "atMost": 0,
                  "below": -100000000000000000000,
                  "huge": [
                    18446744073709552000
                  ]
                }

                """)
        #expect(counts.header("X-Total") == "12345678901234567000", "\(counts.headers)")
        let yaml = try await server.client.get("/counts.yaml")
        #expect(String(decoding: yaml.body, as: UTF8.self) == "atLeast: 100000000000000000000\n")

        let fromJSON = try await ServerProcess.start(["run", "--requests-folder", "json", "--port", "0"], in: work.url)
        defer { fromJSON.stop() }
        let bounds = try await fromJSON.client.get("/bounds")
        #expect(String(decoding: bounds.body, as: UTF8.self) == "{\n  \"atLeast\": 100000000000000000000\n}\n")
    }

    static let yaml = """
        openapi: 3.0.3
        info: {title: Big, version: "1"}
        paths:
          /counts:
            get:
              responses:
                "200":
                  description: counts beyond 64 bits
                  headers:
                    X-Total:
                      schema: {type: integer}
                      example: 12345678901234567890
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          given: {type: integer, example: 12345678901234567890}
                          atLeast: {type: integer, minimum: 1e20}
                          atMost: {type: integer, maximum: 1e20}
                          below: {type: integer, maximum: -1e20}
                          huge: {type: array, items: {type: integer, minimum: 18446744073709551616}}
          /counts.yaml:
            get:
              responses:
                "200":
                  description: the same in YAML
                  content:
                    application/yaml:
                      schema:
                        type: object
                        properties:
                          atLeast: {type: integer, minimum: 1e20}

        """

    /// jansson refuses integers beyond 64 bits, but reads `1e20` as a number.
    static let json = """
        {"openapi": "3.0.3", "info": {"title": "Big", "version": "1"}, "paths": {"/bounds": {"get": {"responses": {
          "200": {"description": "a bound beyond 64 bits", "content": {"application/json": {"schema": {
            "type": "object", "properties": {"atLeast": {"type": "integer", "minimum": 1e20}}}}}}}}}}}

        """
}
