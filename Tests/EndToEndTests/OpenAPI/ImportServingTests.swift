import Foundation
import Testing

/// `import openapi` on real descriptions: each imports, the tree loads without a word, every
/// `configuration.json` is valid against the shipped schema, and the served answers (without `Prefer`, with
/// each documented status and each named example) are what the description says: the examples as given,
/// generated bodies valid against their schemas by a JSON Schema validator, header examples sent.
@Suite("import openapi: descriptions imported and served")
struct ImportServingTests {
    static let descriptions = [
        "oai/v3.0/petstore.yaml", "oai/v3.0/petstore.json", "oai/v3.0/petstore-expanded.yaml",
        "oai/v3.0/api-with-examples.yaml",
        "oai/v3.0/uspto.yaml", "oai/v3.0/callback-example.yaml", "oai/v3.0/link-example.yaml",
        "oai/v3.1/non-oauth-scopes.yaml",
        "oai/v2.0/json/petstore.json", "oai/v2.0/json/petstore-expanded.json", "oai/v2.0/json/api-with-examples.json",
        "oai/v2.0/yaml/uber.yaml", "oai/v2.0/yaml/petstore-separate/spec/swagger.yaml",
        "features/generation-3.0.yaml", "features/generation-3.1.yaml", "features/swagger-2.0.yaml",
        "features/examples-3.0.yaml", "features/media-3.0.yaml",
    ]

    @Test("imported, loaded without a warning, and every operation served as described", arguments: descriptions)
    func servesEveryOperation(_ description: String) async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let spec = OpenAPIFixtures.path(description)
        let imported = try await OpenAPIFixtures.importing(spec, in: work.url)
        #expect(imported.exitCode == 0, "\(imported)")
        let summary = try #require(imported.standardOutputLines.last)
        #expect(summary.hasPrefix("imported ") && summary.hasSuffix(" into tree"), "\(imported)")

        let listed = try await ServerProcess.runToCompletion(["endpoints", "--requests-folder", "tree"], in: work.url)
        #expect(listed.exitCode == 0 && listed.standardError.isEmpty, "the tree does not load cleanly: \(listed)")
        let operations = Int(summary.split(separator: " ")[1]) ?? -1
        #expect(listed.standardOutputLines.filter { $0.first?.isUppercase == true }.count == operations, "\(listed)")

        let configurations = try OpenAPIFixtures.files(under: work.url.appendingPathComponent("tree")).keys.filter {
            $0.hasSuffix("configuration.json")
        }
        let verdicts = try SchemaTests.validate(
            .exchange, configurations.map { work.url.appendingPathComponent("tree/" + $0).path })
        #expect(verdicts.values.allSatisfy { $0 == "valid" }, "\(verdicts.filter { $0.value != "valid" })")

        let server = try await ServerProcess.start(
            ["run", "--requests-folder", "tree", "--port", "0", "--log-level", "WARNING"], in: work.url)
        defer { server.stop() }
        let (passed, output) = try OpenAPIFixtures.check(spec, servedAt: "http://\(server.host):\(server.port)")
        #expect(passed, "\(output)")
    }

    @Test("the checker fails a served body that breaks its schema (the check can fail)")
    func theCheckerCatchesAWrongBody() async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let spec = OpenAPIFixtures.path("oai/v3.0/petstore.yaml")
        #expect(try await OpenAPIFixtures.importing(spec, in: work.url).exitCode == 0)
        // Pet's id must be an integer.
        let body = work.url.appendingPathComponent("tree/v1/pets/{petId}/GET/response-2.json")
        let text = try String(contentsOf: body, encoding: .utf8)
        #expect(text.contains("\"id\": 0"), "\(text)")
        try Data(text.replacingOccurrences(of: "\"id\": 0", with: "\"id\": \"zero\"").utf8).write(to: body)
        let server = try await ServerProcess.start(
            ["run", "--requests-folder", "tree", "--port", "0", "--log-level", "WARNING"], in: work.url)
        defer { server.stop() }
        let (passed, output) = try OpenAPIFixtures.check(spec, servedAt: "http://\(server.host):\(server.port)")
        #expect(!passed)
        #expect(output.contains("FAIL GET /v1/pets/1: body") && output.contains("breaks its schema"), "\(output)")
    }
}
