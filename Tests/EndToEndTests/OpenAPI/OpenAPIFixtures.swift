import Foundation
import Testing

/// The descriptions `import openapi` is tested on (Tests/OpenAPI/Fixtures: the OpenAPI Initiative's
/// examples, and descriptions of the features), and the checker that holds a served import against its
/// description (Tests/OpenAPI/check_served.py, with python3-jsonschema and python3-yaml).
enum OpenAPIFixtures {
    static let folder = SchemaTests.packageRoot.appendingPathComponent("Tests/OpenAPI")

    /// The large public descriptions (GitHub, Stripe, Kubernetes) in the project's sibling shared/, not copied
    /// into the project; tests of them run where it is there.
    static let publicDescriptions = SchemaTests.packageRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/data/openapi-public")

    static func publicDescription(_ name: String) -> String? {
        let path = publicDescriptions.appendingPathComponent(name).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// A fixture's absolute path, from its path under Tests/OpenAPI/Fixtures.
    static func path(_ relative: String) -> String {
        folder.appendingPathComponent("Fixtures/" + relative).path
    }

    /// `import openapi SPEC --requests-folder tree` in `work` (extra arguments after).
    static func importing(
        _ spec: String, into tree: String = "tree", in work: URL, _ more: [String] = []
    ) async throws -> ProcessOutcome {
        try await ServerProcess.runToCompletion(
            ["import", "openapi", spec, "--requests-folder", tree] + more, in: work, timeout: 30)
    }

    /// Runs the checker against the server at `url`: its verdict lines, and whether all held.
    static func check(_ spec: String, servedAt url: String) throws -> (passed: Bool, output: String) {
        let process = DebianPython.process(running: folder.appendingPathComponent("check_served.py").path, [spec, url])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            throw SchemaTests.SchemaValidationError(
                description:
                    "cannot run python3 (\(error)); install python3, python3-jsonschema and python3-yaml (make test-deps)"
            )
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard text.contains("checked ") else {
            throw SchemaTests.SchemaValidationError(description: "check_served.py did not run to its end: \(text)")
        }
        return (process.terminationStatus == 0, text)
    }

    /// Every file under `folder` with its bytes, by path relative to it.
    static func files(under folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = try #require(
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in enumerator
        where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            files[String(url.path.dropFirst(folder.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }
}
