import Foundation
import Testing

/// §8: how the command line is read: `--opt=value`, the last of a repeated flag winning, negative numbers,
/// what wins over what, the `help` command, and completion scripts that offer every flag the help shows.
@Suite("§8 command-line parsing")
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

    @Test("--option=value is read like --option value")
    func attachedValue() async throws {
        let attached = try await outcome(["endpoints", "--requests-folder=network-exchanges", "--json"])
        let separate = try await outcome(["endpoints", "--requests-folder", "network-exchanges", "--json"])
        #expect(attached.exitCode == 0, "\(attached)")
        #expect(attached.standardOutput.contains(#""route":"/ping""#), "\(attached)")
        #expect(attached.standardOutput == separate.standardOutput)

        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let server = try await ServerProcess.start(["run", "--port=0", "--log-level=error"], in: tree.url)
        defer { server.stop() }
        #expect(try await server.client.get("/ping").statusCode == 200)
    }

    @Test("a flag given twice: the last one wins, before the values are checked")
    func lastWins() async throws {
        let listed = try await outcome(["endpoints", "--requests-folder", "nowhere", "--requests-folder", "network-exchanges"])
        #expect(listed.exitCode == 0, "\(listed)")
        #expect(listed.standardOutput.hasPrefix("GET  /ping"), "\(listed)")
        let missing = try await outcome(["endpoints", "--requests-folder=network-exchanges", "--requests-folder", "nowhere"])
        #expect(missing.exitCode == 78, "\(missing)")
        #expect(missing.standardError.contains("nowhere"), "\(missing)")

        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let server = try await ServerProcess.start(["run", "--port", "70000", "--port", "0"], in: tree.url)
        defer { server.stop() }
        #expect(server.port > 0)
    }

    @Test("negative numbers are read as values, then rejected with a clear message", arguments: [
        (["run", "--port", "-1"], "--port must be from 0 to 65535"),
        (["run", "--port=-1"], "--port must be from 0 to 65535"),
        (["run", "--delay", "-1"], "--delay must be 0 or more seconds"),
        (["run", "--delay", "-0.5", "--port", "0"], "--delay must be 0 or more seconds"),
    ])
    func negativeNumbers(arguments: [String], message: String) async throws {
        try await expectUsageError(arguments, message)
    }

    @Test("unknown options and words exit 64, with a suggestion for a near miss", arguments: [
        (["run", "--bogus"], "Unknown option '--bogus'", runUsage),
        (["run", "--prot", "1"], "Unknown option '--prot'. Did you mean '--port'?", runUsage),
        (["run", "-x"], "Unknown option '-x'", runUsage),
        (["run", "stray"], "Unexpected argument 'stray'", runUsage),
        (["endpoints", "--port", "0"], "Unknown option '--port'", "Usage: espressomartini endpoints"),
        (["endpoints", "--jsn"], "Did you mean '--json'?", "Usage: espressomartini endpoints"),
        (["serve"], "Unexpected argument 'serve'", "Usage: espressomartini <subcommand>"),
        (["--bogus"], "Unknown option '--bogus'", "Usage: espressomartini <subcommand>"),
    ])
    func unknown(arguments: [String], message: String, usage: String) async throws {
        try await expectUsageError(arguments, message, usage: usage)
    }

    @Test("missing or malformed values exit 64", arguments: [
        (["run", "--port"], "Missing value for '--port <n>'"),
        (["run", "--port="], "Missing value for '--port <n>'"),
        // A text option does not take an option as its value.
        (["run", "--configuration", "--port", "1"], "Missing value for '--configuration <file>'"),
        (["run", "--port", "abc"], "The value 'abc' is invalid for '--port <n>'"),
        (["run", "--delay=soon"], "The value 'soon' is invalid for '--delay <seconds>'"),
        (["run", "--log-level", "loud"], "--log-level must be one of TRACE, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL"),
    ])
    func badValues(arguments: [String], message: String) async throws {
        try await expectUsageError(arguments, message)
    }

    @Test("a flag given a value exits 64")
    func flagWithValue() async throws {
        try await expectUsageError(
            ["endpoints", "--json=yes"], "The option '--json' does not take any value", usage: "Usage: espressomartini endpoints"
        )
    }

    @Test("--version wins over unknown options and out-of-range values", arguments: [
        ["run", "--bogus", "--version"],
        ["run", "--port", "99999", "--version"],
        ["endpoints", "stray", "--version"],
    ])
    func versionWins(arguments: [String]) async throws {
        let outcome = try await outcome(arguments)
        #expect(outcome.exitCode == 0, "\(arguments): \(outcome)")
        #expect(outcome.standardOutput == (try await self.outcome(["--version"])).standardOutput, "\(arguments): \(outcome)")
        #expect(outcome.standardError.isEmpty)
    }

    @Test("--help wins over unknown options and out-of-range values", arguments: [
        ["run", "--bogus", "--help"],
        ["run", "--log-level", "loud", "-h"],
        ["run", "--port", "99999", "--version", "--help"],
    ])
    func helpWins(arguments: [String]) async throws {
        let outcome = try await outcome(arguments)
        #expect(outcome.exitCode == 0, "\(arguments): \(outcome)")
        #expect(outcome.standardOutput == (try await self.outcome(["run", "--help"])).standardOutput, "\(arguments): \(outcome)")
        #expect(outcome.standardError.isEmpty)
    }

    @Test("`help COMMAND` prints what `COMMAND --help` prints; `help` and no arguments, the root's help", arguments: [
        (["help", "run"], ["run", "--help"]),
        (["help", "endpoints"], ["endpoints", "-h"]),
        (["help"], ["--help"]),
        ([], ["--help"]),
        (["help", "unknown"], ["-h"]),
    ])
    func helpCommand(arguments: [String], equivalent: [String]) async throws {
        let outcome = try await outcome(arguments)
        let expected = try await self.outcome(equivalent)
        #expect(outcome.exitCode == 0, "\(arguments): \(outcome)")
        #expect(outcome.standardOutput.contains("USAGE: espressomartini"))
        #expect(outcome.standardOutput == expected.standardOutput, "\(arguments) and \(equivalent) differ")
    }

    @Test("the help page describes every flag with its text")
    func helpTexts() async throws {
        let run = try await outcome(["run", "--help"]).standardOutput
        for text in ["--port <n>", "The port; 0 lets the system pick.", "--log-level <level>", "--configuration <file>", "-h, --help"] {
            #expect(run.contains(text), "run --help lacks '\(text)'")
        }
        let root = try await outcome(["--help"]).standardOutput
        #expect(root.contains("SUBCOMMANDS:"))
        #expect(root.contains("See 'espressomartini help <subcommand>' for detailed help."))
    }

    @Test("an unknown completion shell exits 64")
    func unknownShell() async throws {
        try await expectUsageError(
            ["--generate-completion-script", "ksh"], "Can't generate completion scripts for 'ksh'", usage: "Usage: espressomartini <subcommand>"
        )
    }

    static let shells: [(name: String, path: String)] = [("bash", "/bin/bash"), ("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")]

    @Test("each completion script offers every command, every flag --help shows and the log levels", arguments: shells.map(\.name))
    func completionScriptsOfferEveryFlag(shell: String) async throws {
        let script = try await outcome(["--generate-completion-script", shell])
        #expect(script.exitCode == 0, "\(script)")
        for command in ["run", "endpoints"] {
            #expect(script.standardOutput.contains(command))
            let help = try await outcome([command, "--help"]).standardOutput
            let names = Set(help.matches(of: /--([a-z][a-z-]*)/).map { String($0.output.1) })
            #expect(names.count >= 5, "\(command) --help: \(help)")
            for name in names {
                // fish names options without their dashes: `-l port`.
                let spelling = shell == "fish" ? "-l \(name)" : "--\(name)"
                #expect(script.standardOutput.contains(spelling), "the \(shell) script does not offer \(command) --\(name)")
            }
            #expect(script.standardOutput.contains(shell == "fish" ? "-s h" : "-h"))
        }
        #expect(script.standardOutput.contains("TRACE DEBUG INFO NOTICE WARNING ERROR CRITICAL"))
    }

    @Test("each completion script is valid for its shell (when the shell is installed)", arguments: shells)
    func completionScriptsParse(shell: String, path: String) async throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { return }
        let script = try await outcome(["--generate-completion-script", shell]).standardOutput
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("espressomartini-completion-\(UUID().uuidString).\(shell)")
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
