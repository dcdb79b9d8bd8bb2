import EspressoMartini
import EspressoMartiniJansson
import EspressoMartiniOpenAPI
import EspressoMartiniYAML
import Foundation
import Testing

/// Descriptions written into a temporary folder and drafted with the real parsers (jansson, libyaml).
struct DescriptionFixture {
    static let parser = DescriptionParser(
        json: JanssonParser(), yaml: YAMLParser(valueLimit: OpenAPIImporter.yamlValueLimit))

    /// Drafts `text` written as `name`, with `files` beside it; `body` gets the import and the folder.
    static func draft<T>(
        _ text: String, name: String = "api.yaml", files: [String: String] = [:], _ body: (OpenAPIImport) throws -> T
    ) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-openapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, contents) in files.merging([name: text], uniquingKeysWith: { $1 }) {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        let drafted = OpenAPIImporter(parser: parser).draft(file: folder.appendingPathComponent(name).path)
        return try body(drafted)
    }

    /// The warnings without the folder's path: `api.yaml: warning: at /x: …`.
    static func warnings(_ drafted: OpenAPIImport) -> [String] {
        drafted.diagnostics.all.map { diagnostic in
            let text = diagnostic.description
            guard let slash = diagnostic.path.lastIndex(of: "/") else { return text }
            return String(text.dropFirst(diagnostic.path.distance(from: diagnostic.path.startIndex, to: slash) + 1))
        }
    }

    /// A body draft as JSON (nil for no body).
    static func json(_ body: ResponseDraft.Body) throws -> JSONValue? {
        switch body {
        case .none: return nil
        case .bytes(let bytes, fileExtension: "json"): return try JanssonParser().parse(bytes).get()
        default: Issue.record("not a JSON body: \(body)"); return nil
        }
    }

    /// The default answer of the first exchange: its status and JSON body.
    static func defaultAnswer(_ drafted: OpenAPIImport) throws -> (status: Int, body: JSONValue?) {
        let exchange = try #require(drafted.exchanges.first)
        let response: ResponseDraft
        switch exchange.answers {
        case .responses(let responses, _): response = try #require(responses.first)
        case .variants(let variants): response = try #require(variants.last?.responses.first)
        }
        return (response.statusCode, try json(response.body))
    }

    /// A description of one operation `GET /thing` answering `schema` (YAML, indented as a response's schema).
    static func schemaDescription(_ schema: String, version: String = "3.0.3", components: String = "") -> String {
        let indented = schema.split(separator: "\n", omittingEmptySubsequences: false).map { "                " + $0 }
            .joined(separator: "\n")
        return """
            openapi: \(version)
            info: {title: t, version: "1"}
            paths:
              /thing:
                get:
                  responses:
                    "200":
                      description: the thing
                      content:
                        application/json:
                          schema:
            \(indented)
            components:
              schemas:
                placeholder: {}
            \(components)
            """
    }
}
