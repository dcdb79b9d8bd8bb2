import Foundation
import Glibc
import Testing

/// doc/command-line.md: `--version`, `--help`, completion scripts, bad arguments (64) and an unavailable port (69).
@Suite("command line")
struct CommandLineTests {
    static let commands: [[String]] = [[], ["run"], ["endpoints"]]

    @Test("--version on every command prints the same version and exits 0", arguments: commands)
    func version(command: [String]) async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let root = try await ServerProcess.runToCompletion(["--version"], in: tree.url)
        let outcome = try await ServerProcess.runToCompletion(command + ["--version"], in: tree.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(outcome.standardOutputLines.count == 1)
        let version = try #require(outcome.standardOutputLines.first)
        #expect(version.wholeMatch(of: /\d+\.\d+\.\d+([-+.][0-9A-Za-z.-]+)?/) != nil, "not a version: \(version)")
        #expect(outcome.standardOutput == root.standardOutput)
        #expect(outcome.standardError.isEmpty)
    }

    @Test("--help on every command prints its usage and exits 0", arguments: commands)
    func help(command: [String]) async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(command + ["--help"], in: tree.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        let usage = "USAGE: espressomartini" + (command.isEmpty ? "" : " " + command[0])
        #expect(outcome.standardOutput.contains(usage), "\(outcome)")
        switch command.first {
        case nil:
            #expect(outcome.standardOutput.contains("run"))
            #expect(outcome.standardOutput.contains("endpoints"))
        case "run":
            for flag in [
                "--configuration", "--requests-folder", "--hostname", "--port", "--delay", "--log-level", "--version",
            ] {
                #expect(outcome.standardOutput.contains(flag), "run --help does not mention \(flag)")
            }
        default:
            for flag in ["--configuration", "--requests-folder", "--json", "--version"] {
                #expect(outcome.standardOutput.contains(flag), "endpoints --help does not mention \(flag)")
            }
        }
    }

    @Test("shell completion scripts are generated", arguments: ["bash", "zsh", "fish"])
    func completionScript(shell: String) async throws {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["--generate-completion-script", shell], in: tree.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("espressomartini"))
        #expect(outcome.standardOutput.contains("endpoints"))
    }

    static let badArguments: [[String]] = [
        ["run", "--port", "70000"],
        ["run", "--port", "-1"],
        ["run", "--port", "abc"],
        ["run", "--log-level", "loud"],
        ["run", "--delay", "-1"],
        ["run", "--delay", "soon"],
        ["run", "--bogus"],
        ["run", "--port"],
        ["endpoints", "--bogus"],
        ["endpoints", "--port", "0"],
        ["serve"],
    ]

    @Test("bad arguments exit 64 with a message on standard error only", arguments: badArguments)
    func badArgumentsExit64(arguments: [String]) async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(arguments, in: tree.url)
        #expect(outcome.exitCode == 64, "\(arguments): \(outcome)")
        #expect(!outcome.standardOutput.contains("listening"), "\(outcome)")
        #expect(!outcome.standardError.isEmpty)
    }

    @Test("a port that cannot be bound exits 69 naming the address")
    func portInUseExits69() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let occupied = try OccupiedPort(host: "127.0.0.1")
        defer { occupied.close() }
        let outcome = try await ServerProcess.runToCompletion(["run", "--port", String(occupied.port)], in: tree.url)
        #expect(outcome.exitCode == 69, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("127.0.0.1:\(occupied.port)"), "\(outcome)")
    }

    @Test("a port held by another espressomartini exits 69 naming the address")
    func portHeldByAnotherServer() async throws {
        let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder])
        defer { tree.remove() }
        let first = try await ServerProcess.serving(tree)
        defer { first.stop() }
        let outcome = try await ServerProcess.runToCompletion(["run", "--port", String(first.port)], in: tree.url)
        #expect(outcome.exitCode == 69, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("127.0.0.1:\(first.port)"), "\(outcome)")
        // The first one is unharmed.
        #expect(try await first.client.get("/ping").statusCode == 200)
    }
}
