import Foundation
import Testing

/// `import openapi` as a command: what it prints, its exit statuses, the folder it will not write into, and
/// the same tree from the same description.
@Suite("import openapi: the command")
struct ImportCommandTests {
    @Test("the same description gives byte-identical trees, and a re-import with --force changes nothing")
    func deterministic() async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let spec = OpenAPIFixtures.path("features/examples-3.0.yaml")
        #expect(try await OpenAPIFixtures.importing(spec, into: "first", in: work.url).exitCode == 0)
        #expect(try await OpenAPIFixtures.importing(spec, into: "second", in: work.url).exitCode == 0)
        let first = try OpenAPIFixtures.files(under: work.url.appendingPathComponent("first"))
        #expect(first.count > 10)
        #expect(first == (try OpenAPIFixtures.files(under: work.url.appendingPathComponent("second"))))
        let again = try await OpenAPIFixtures.importing(spec, into: "first", in: work.url, ["--force"])
        #expect(again.exitCode == 0, "\(again)")
        #expect(first == (try OpenAPIFixtures.files(under: work.url.appendingPathComponent("first"))))
    }

    @Test("it prints what it wrote on standard output and nothing on standard error when all went well")
    func summary() async throws {
        let work = try TemporaryTree(files: [
            "petstore.yaml": .text(
                try String(contentsOfFile: OpenAPIFixtures.path("oai/v3.0/petstore.yaml"), encoding: .utf8))
        ])
        defer { work.remove() }
        let outcome = try await ServerProcess.runToCompletion(["import", "openapi", "petstore.yaml"], in: work.url)
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput == "imported 3 operations into network-exchanges\n")
        #expect(outcome.standardError.isEmpty, "\(outcome)")
        let listed = try await ServerProcess.runToCompletion(["endpoints"], in: work.url)
        #expect(
            listed.standardOutputLines.filter { $0.first?.isUppercase == true }.map {
                $0.split(separator: " ").prefix(2).joined(separator: " ")
            }
                == ["GET /v1/pets", "POST /v1/pets", "GET /v1/pets/{petId}"])
    }

    @Test("a folder holding files is refused with 73, naming the first file; --force writes into it and keeps the rest")
    func folderHoldingFiles() async throws {
        let work = try TemporaryTree(files: [
            "tree/.hidden": "ignored", "tree/b/GET/configuration.json": "{}", "tree/a/notes.txt": "mine",
            "tree/empty/": .folder,
        ])
        defer { work.remove() }
        let spec = OpenAPIFixtures.path("oai/v3.0/petstore.yaml")
        let refused = try await OpenAPIFixtures.importing(spec, in: work.url)
        #expect(refused.exitCode == 73)
        #expect(
            refused.standardError.contains("tree already holds files (tree/a/notes.txt); nothing was written"),
            "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: work.url.appendingPathComponent("tree/v1").path))

        let forced = try await OpenAPIFixtures.importing(spec, in: work.url, ["--force"])
        #expect(forced.exitCode == 0, "\(forced)")
        #expect(
            FileManager.default.fileExists(
                atPath: work.url.appendingPathComponent("tree/v1/pets/GET/configuration.json").path))
        #expect(try String(contentsOf: work.url.appendingPathComponent("tree/a/notes.txt"), encoding: .utf8) == "mine")

        let emptyFolders = try TemporaryTree(files: ["tree/empty/deeper/": .folder, "tree/.git/HEAD": "ref"])
        defer { emptyFolders.remove() }
        #expect(
            try await OpenAPIFixtures.importing(spec, in: emptyFolders.url).exitCode == 0,
            "only folders and hidden files: nothing to overwrite")
    }

    @Test("a requests folder that is a file is refused with 73")
    func folderIsAFile() async throws {
        let work = try TemporaryTree(files: ["tree": "a file"])
        defer { work.remove() }
        let outcome = try await OpenAPIFixtures.importing(
            OpenAPIFixtures.path("oai/v3.0/petstore.yaml"), in: work.url, ["--force"])
        #expect(outcome.exitCode == 73)
        #expect(outcome.standardError.contains("tree is not a folder; nothing was written"), "\(outcome)")
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let file: String
        let text: String?
        let exitCode: Int32
        let message: String
    }

    static let refusals: [Refusal] = [
        Refusal(
            testDescription: "YAML with a syntax error", file: "broken.yaml",
            text: "openapi: 3.0.0\npaths:\n  /a: [1, 2\n", exitCode: 65,
            message:
                "broken.yaml:4:1: error: invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence); the description must be JSON or YAML"
        ),
        Refusal(
            testDescription: "JSON with a syntax error", file: "broken.json",
            text: "{\"openapi\": \"3.0.0\",\n  \"paths\": {,}}", exitCode: 65,
            message:
                "broken.json:2:13: error: invalid JSON: string or '}' expected near ','; the description must be JSON or YAML"
        ),
        Refusal(
            testDescription: "neither JSON nor YAML", file: "binary.yaml", text: "\u{1}\u{2}openapi", exitCode: 65,
            message: "binary.yaml:1:1: error: invalid YAML: control characters are not allowed"),
        Refusal(
            testDescription: "not an OpenAPI description", file: "other.json", text: #"{"name": "a package"}"#,
            exitCode: 65,
            message: "other.json: error: not an OpenAPI description: it has neither 'openapi' nor 'swagger' at its top"),
        Refusal(
            testDescription: "a text, not an object", file: "text.yaml", text: "just some words\n", exitCode: 65,
            message:
                "text.yaml: error: the document is a string, not an OpenAPI description (an object with 'openapi' or 'swagger')"
        ),
        Refusal(
            testDescription: "a version not read", file: "four.yaml", text: "openapi: 4.0.0\npaths: {}\n", exitCode: 65,
            message: "four.yaml: error: 'openapi: 4.0.0' is a version this import does not read"),
        Refusal(
            testDescription: "no paths", file: "empty.yaml",
            text: "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n", exitCode: 65,
            message: "empty.yaml: error: no operation to import: it has no paths"),
        Refusal(
            testDescription: "webhooks only", file: "hooks.yaml", text: nil, exitCode: 65,
            message:
                "error: no operation to import: it has no paths (its webhooks are requests the API sends, not ones it answers)"
        ),
        Refusal(
            testDescription: "no file", file: "missing.yaml", text: nil, exitCode: 66,
            message: "missing.yaml: error: cannot read the description: there is no such file"),
        Refusal(
            testDescription: "a folder", file: "folder", text: nil, exitCode: 66,
            message: "folder: error: cannot read the description: it is a folder, not a file"),
    ]

    @Test(
        "descriptions that cannot be imported: exit 65 or 66, a positioned error where there is a position, nothing written",
        arguments: refusals)
    func refused(_ refusal: Refusal) async throws {
        var files: [String: TreeEntry] = ["folder/": .folder]
        if let text = refusal.text { files[refusal.file] = .text(text) }
        let work = try TemporaryTree(files: files)
        defer { work.remove() }
        let spec = refusal.file == "hooks.yaml" ? OpenAPIFixtures.path("oai/v3.1/webhook-example.yaml") : refusal.file
        let outcome = try await OpenAPIFixtures.importing(spec, in: work.url)
        #expect(outcome.exitCode == refusal.exitCode, "\(outcome)")
        #expect(outcome.standardError.contains(refusal.message), "\(outcome)")
        #expect(outcome.standardErrorLines.last == "espressomartini: nothing was imported", "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: work.url.appendingPathComponent("tree").path))
    }

    @Test("bad arguments: an unknown format, a missing description, an empty requests folder (64)")
    func usage() async throws {
        let work = try TemporaryTree(files: ["keep.txt": "x"])
        defer { work.remove() }
        let unknown = try await ServerProcess.runToCompletion(["import", "raml", "api.raml"], in: work.url)
        #expect(unknown.exitCode == 64)
        #expect(unknown.standardError.contains("Unknown format 'raml'; import reads: openapi"), "\(unknown)")
        let missing = try await ServerProcess.runToCompletion(["import", "openapi"], in: work.url)
        #expect(missing.exitCode == 64)
        #expect(missing.standardError.contains("Missing expected argument '<spec>'"), "\(missing)")
        let empty = try await ServerProcess.runToCompletion(
            ["import", "openapi", "api.yaml", "--requests-folder", ""], in: work.url)
        #expect(empty.exitCode == 64)
        #expect(empty.standardError.contains("The requests folder is empty"), "\(empty)")
    }

    @Test("warnings name the file and the JSON Pointer; the import goes on, and an unresolvable $ref's body is {}")
    func warnings() async throws {
        let work = try TemporaryTree(files: ["api.yaml": .text(Self.troubled)])
        defer { work.remove() }
        let outcome = try await OpenAPIFixtures.importing("api.yaml", in: work.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(outcome.standardOutput == "imported 4 operations into tree\n")
        let expected = [
            "api.yaml: warning: at /paths/~1lost/get/responses/200/content/application~1json/schema: $ref '#/components/schemas/Nowhere' cannot be resolved: nothing is at /components/schemas/Nowhere in api.yaml; {} stands in its place",
            "api.yaml: warning: at /paths/~1feed/get/responses/200/content/application~1atom+xml: GET /feed: a body of 'application/atom+xml' cannot be generated; it is answered with its Content-Type and no body (put a file beside configuration.json and name it in response_file, or give a string example)",
            "api.yaml: warning: at /components/schemas/Person/properties/friend: $ref '#/components/schemas/Person' leads back into a schema it is part of; the cycle is cut here (an optional property is left out, a required one is null, an array is empty)",
            "api.yaml: warning: at /paths/~1people~1{id}/get/responses/200/content/application~1json/examples/wrong/value: the example 'wrong' does not validate against its schema (/age: expected an integer, found a string); it is imported as it is",
            "espressomartini: 4 warnings",
        ]
        #expect(outcome.standardErrorLines == expected, "\(outcome)")

        let server = try await ServerProcess.start(["run", "--requests-folder", "tree", "--port", "0"], in: work.url)
        defer { server.stop() }
        let lost = try await server.client.get("/lost")
        #expect(lost.statusCode == 200)
        #expect(String(decoding: lost.body, as: UTF8.self) == "{}\n")
        let person = try await server.client.get("/people/7")
        #expect(String(decoding: person.body, as: UTF8.self) == "{\n  \"name\": \"Ada\",\n  \"age\": 36\n}\n")
        let wrong = try await server.client.get("/people/7", headers: [("Prefer", "example=wrong")])
        #expect(String(decoding: wrong.body, as: UTF8.self).contains("\"thirty-six\""))
        let people = try await server.client.get("/people")
        #expect(
            String(decoding: people.body, as: UTF8.self)
                == "[\n  {\n    \"name\": \"string\",\n    \"age\": 0\n  }\n]\n")
        let feed = try await server.client.get("/feed")
        #expect(feed.statusCode == 200 && feed.body.isEmpty)
        #expect(feed.header("Content-Type") == "application/atom+xml", "\(feed.headers)")
    }

    static let troubled = """
        openapi: 3.0.3
        info: {title: Troubled, version: "1"}
        paths:
          /lost:
            get:
              responses:
                "200":
                  description: a schema that is not there
                  content:
                    application/json:
                      schema:
                        $ref: "#/components/schemas/Nowhere"
          /feed:
            get:
              responses:
                "200":
                  description: only Atom
                  content:
                    application/atom+xml:
                      schema: {type: string}
          /people:
            get:
              responses:
                "200":
                  description: people, generated
                  content:
                    application/json:
                      schema:
                        type: array
                        items:
                          $ref: "#/components/schemas/Person"
          /people/{id}:
            get:
              responses:
                "200":
                  description: a person
                  content:
                    application/json:
                      schema:
                        $ref: "#/components/schemas/Person"
                      examples:
                        ada:
                          value: {name: Ada, age: 36}
                        wrong:
                          value: {name: Ada, age: thirty-six}
        components:
          schemas:
            Person:
              type: object
              required: [name]
              properties:
                name: {type: string}
                age: {type: integer}
                friend:
                  $ref: "#/components/schemas/Person"

        """
}
