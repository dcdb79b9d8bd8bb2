import Foundation
import Testing

/// doc/command-line.md errors: every problem in the tree and the configuration reported as `PATH:LINE:COLUMN: error: MESSAGE`,
/// then a summary; nothing on standard output; exit 78 for `run` and `endpoints`.
@Suite("configuration errors")
struct ConfigurationErrorTests {
    static let commands: [[String]] = [["run", "--port", "0"], ["endpoints"], ["endpoints", "--json"]]

    /// Three broken method folders and one with only a warning.
    static func brokenTree() throws -> TemporaryTree {
        try TemporaryTree(exchanges: [
            "a/GET/configuration.json": "{\n  \"status_code\": \"abc\"\n}\n",
            "b/POST/configuration.json": #"[{"body": 1,}]"#,
            "c/GET/configuration.json": #"{"response_file": "nope.json"}"#,
            "d/GET/configuration.json": #"{"status": 201}"#,
            "ok/GET/": .folder,
        ])
    }

    nonisolated(unsafe) static let diagnosticLine =
        /(?<path>[^:]+)(:(?<line>\d+):(?<column>\d+))?: (?<severity>error|warning): (?<message>.+)/

    @Test(
        "every error is reported with path, line and column, then a summary; exit 78; stdout empty", arguments: commands
    )
    func everyErrorReported(command: [String]) async throws {
        let tree = try Self.brokenTree()
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(command, in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty, "\(outcome)")

        let lines = outcome.standardErrorLines
        let diagnostics = lines.compactMap { $0.wholeMatch(of: Self.diagnosticLine) }
        let errors = diagnostics.filter { $0.severity == "error" }
        #expect(errors.count == 3, "\(outcome)")
        let byPath = Dictionary(errors.map { (String($0.path), $0) }, uniquingKeysWith: { first, _ in first })

        let statusCode = try #require(byPath["network-exchanges/a/GET/configuration.json"], "\(outcome)")
        #expect(statusCode.line == "2")
        #expect(statusCode.column == "18")
        #expect(statusCode.message.contains("status_code"))

        let syntax = try #require(byPath["network-exchanges/b/POST/configuration.json"], "\(outcome)")
        #expect(syntax.line == "1")
        #expect(
            syntax.column.flatMap { Int($0) }.map { (11...14).contains($0) } == true,
            "column \(syntax.column ?? "none")")

        let missingFile = try #require(byPath["network-exchanges/c/GET/configuration.json"], "\(outcome)")
        #expect(missingFile.line != nil)
        #expect(missingFile.message.contains("nope.json"))

        let warning = diagnostics.first { $0.severity == "warning" }
        #expect(warning?.path == "network-exchanges/d/GET/configuration.json")
        #expect(warning?.message.contains("'status'") == true)
        #expect(warning?.message.contains("status_code") == true)

        // The summary comes last and counts the errors.
        let summary = try #require(lines.last)
        #expect(summary.wholeMatch(of: Self.diagnosticLine) == nil, "no summary line after the diagnostics")
        #expect(summary.contains("3 errors"), "summary: \(summary)")
    }

    @Test("errors in the server configuration and in the tree are reported together", arguments: commands)
    func configurationAndTreeErrorsTogether(command: [String]) async throws {
        let tree = try TemporaryTree(
            exchanges: ["a/GET/configuration.json": #"{"delay": -1}"#],
            configuration: "{\n  \"port\": \"x\",\n  \"log_level\": \"loud\",\n  \"colour\": 1\n}\n"
        )
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(command, in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        let diagnostics = outcome.standardErrorLines.compactMap { $0.wholeMatch(of: Self.diagnosticLine) }
        let errors = diagnostics.filter { $0.severity == "error" }
        #expect(
            errors.contains { $0.path == "configuration.json" && $0.line == "2" && $0.message.contains("port") },
            "\(outcome)")
        #expect(
            errors.contains { $0.path == "configuration.json" && $0.line == "3" && $0.message.contains("loud") },
            "\(outcome)")
        #expect(
            errors.contains { $0.path == "network-exchanges/a/GET/configuration.json" && $0.message.contains("delay") },
            "\(outcome)")
        #expect(
            diagnostics.contains {
                $0.severity == "warning" && $0.path == "configuration.json" && $0.line == "4"
                    && $0.message.contains("colour")
            },
            "\(outcome)"
        )
        #expect(outcome.standardErrorLines.last?.contains("3 errors") == true, "\(outcome)")
    }

    @Test("a requests folder that does not exist is an error: exit 78", arguments: commands)
    func missingRequestsFolder(command: [String]) async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(command + ["--requests-folder", "nothere"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardErrorLines.contains { $0.hasPrefix("nothere: error: ") }, "\(outcome)")
    }

    @Test("the default requests folder missing is an error too: exit 78", arguments: commands)
    func missingDefaultRequestsFolder(command: [String]) async throws {
        let tree = try TemporaryTree(files: ["elsewhere/": .folder])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(command, in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardErrorLines.contains { $0.hasPrefix("network-exchanges: error: ") }, "\(outcome)")
    }

    @Test("a --configuration file that does not exist is an error: exit 78", arguments: commands)
    func missingConfigurationFile(command: [String]) async throws {
        let tree = try TemporaryTree(exchanges: ["ok/GET/": .folder])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(
            command + ["--configuration", "nothere.json"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardErrorLines.contains { $0.hasPrefix("nothere.json: error: ") }, "\(outcome)")
    }

    /// doc/tree.md load errors, each reported by `endpoints` as an error naming the right file or folder.
    static let brokenTrees: [(name: String, exchanges: [String: TreeEntry], blamed: String)] = [
        ("GET and get side by side", ["x/GET/": .folder, "x/get/": .folder], "network-exchanges/x/"),
        ("{id} beside *", ["x/{id}/GET/": .folder, "x/*/GET/": .folder], "network-exchanges/x/"),
        (
            "reserved __espressomartini folder", ["__espressomartini/health/GET/": .folder],
            "network-exchanges/__espressomartini"
        ),
        ("a folder below **", ["files/**/more/GET/": .folder], "network-exchanges/files/**/more"),
        (
            "response_file and body together",
            ["x/GET/configuration.json": #"{"body": "a", "response_file": "f.txt"}"#, "x/GET/f.txt": "f"],
            "network-exchanges/x/GET/configuration.json"
        ),
        (
            "response_file outside the requests folder",
            ["x/GET/configuration.json": #"{"response_file": "../../../secret.txt"}"#],
            "network-exchanges/x/GET/configuration.json"
        ),
        (
            "an empty array of responses", ["x/GET/configuration.json": "[]"],
            "network-exchanges/x/GET/configuration.json"
        ),
        (
            "status_code out of range", ["x/GET/configuration.json": #"{"status_code": 100}"#],
            "network-exchanges/x/GET/configuration.json"
        ),
    ]

    @Test("load errors of the tree stop run and endpoints with 78", arguments: 0..<brokenTrees.count)
    func loadErrors(index: Int) async throws {
        let broken = Self.brokenTrees[index]
        let tree = try TemporaryTree(exchanges: broken.exchanges, files: ["secret.txt": "secret"])
        defer { tree.remove() }
        for command in [["endpoints"], ["run", "--port", "0"]] {
            let outcome = try await ServerProcess.runToCompletion(command, in: tree.url)
            #expect(outcome.exitCode == 78, "\(broken.name), \(command): \(outcome)")
            #expect(outcome.standardOutput.isEmpty, "\(broken.name): \(outcome)")
            let errors = outcome.standardErrorLines.filter { $0.contains(": error: ") }
            #expect(errors.contains { $0.hasPrefix(broken.blamed) }, "\(broken.name): \(outcome)")
        }
    }

    @Test("a clash names both folders")
    func clashNamesBothFolders() async throws {
        let tree = try TemporaryTree(exchanges: ["x/GET/": .folder, "x/get/": .folder])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["endpoints"], in: tree.url)
        #expect(outcome.exitCode == 78)
        let error = try #require(outcome.standardErrorLines.first { $0.contains(": error: ") }, "\(outcome)")
        #expect(error.contains("network-exchanges/x/GET"), "\(error)")
        #expect(error.contains("network-exchanges/x/get"), "\(error)")
    }

    @Test("warnings alone do not stop the server")
    func warningsDoNotStop() async throws {
        let tree = try TemporaryTree(exchanges: ["x/GET/configuration.json": #"{"status": 201, "body": "ok"}"#])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.get("/x")
        #expect(response.statusCode == 200)
        #expect(response.text == "ok")
        let warning = server.standardError.split(separator: "\n").first { $0.contains(": warning: ") }
        #expect(
            warning?.hasPrefix("network-exchanges/x/GET/configuration.json:1:2: warning: ") == true,
            "\(server.standardError)")
        #expect(warning?.contains("status_code") == true)
    }
}
