import Foundation
import Testing

/// doc/command-line.md: the command line as the program reads it: its own checks of values, the parser's mistakes reported on
/// standard error with exit 64, and its completion scripts valid for their shells. The parser itself, on
/// definitions of its own, is tested in-process by EspressoMartiniCommandLineTests.
@Suite("command-line parsing")
struct CommandLineParsingTests {
    static let runUsage = "Usage: espressomartini run [--configuration <file>]"

    /// Runs the binary in a small tree with one exchange, `GET /ping`.
    private func outcome(_ arguments: [String]) async throws -> ProcessOutcome {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        return try await ServerProcess.runToCompletion(arguments, in: tree.url)
    }

    /// Exit 64, nothing on standard output, and standard error holding `message` and the command's usage.
    private func expectUsageError(_ arguments: [String], _ message: String, usage: String = runUsage) async throws {
        let outcome = try await outcome(arguments)
        #expect(outcome.exitCode == 64, "\(arguments): \(outcome)")
        #expect(outcome.standardOutput.isEmpty, "\(arguments): \(outcome)")
        #expect(outcome.standardError.contains(message), "\(arguments): \(outcome)")
        #expect(outcome.standardError.contains(usage), "\(arguments): \(outcome)")
    }

    @Test(
        "the program's own checks of values exit 64 with their message and the usage",
        arguments: [
            (["run", "--port", "-1"], "--port must be from 0 to 65535"),
            (["run", "--port=70000"], "--port must be from 0 to 65535"),
            (["run", "--delay", "-1"], "--delay must be 0 or more seconds"),
            (["run", "--delay", "-0.5", "--port", "0"], "--delay must be 0 or more seconds"),
            (
                ["run", "--log-level", "loud"],
                "--log-level must be one of TRACE, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL"
            ),
        ])
    func programChecks(arguments: [String], message: String) async throws {
        try await expectUsageError(arguments, message)
    }

    @Test(
        "the parser's mistakes exit 64, reported on standard error with the usage",
        arguments: [
            (["run", "--prot", "1"], "Unknown option '--prot'. Did you mean '--port'?", runUsage),
            (
                ["endpoints", "--json=yes"], "The option '--json' does not take any value",
                "Usage: espressomartini endpoints"
            ),
            (
                ["--generate-completion-script", "ksh"], "Can't generate completion scripts for 'ksh'",
                "Usage: espressomartini <subcommand>"
            ),
        ])
    func parserMistakes(arguments: [String], message: String, usage: String) async throws {
        try await expectUsageError(arguments, message, usage: usage)
    }

    @Test("the last of a repeated option is the one the server uses")
    func lastWinsInTheServer() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let server = try await ServerProcess.start(
            ["run", "--port", "70000", "--port=0", "--log-level=error"], in: tree.url)
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(try await server.client.get("/ping").statusCode == 200)
    }

    static let shells: [(name: String, path: String)] = [
        ("bash", "/bin/bash"), ("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish"),
    ]

    @Test("each completion script is valid for its shell (when the shell is installed)", arguments: shells)
    func completionScriptsParse(shell: String, path: String) async throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { return }
        let script = try await outcome(["--generate-completion-script", shell]).standardOutput
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-completion-\(UUID().uuidString).\(shell)")
        try Data(script.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: path)
        check.arguments = ["-n", file.path]
        let errors = Pipe()
        check.standardError = errors
        try check.run()
        check.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(check.terminationStatus == 0, "\(shell) -n: \(message)")
    }
}
