import EspressoMartini
import EspressoMartiniCommandLine
import Glibc

/// The program: reads the command line, then prints a help page, the version or a completion script, or runs
/// `run`, `record`, `endpoints`, `explain`, `init` or `import`; ends with the exit status of doc/command-line.md.
@main
enum EspressoMartiniCommand {
    static let root = CommandDefinition(
        name: "espressomartini",
        abstract: "A folder-driven HTTP mock server.",
        discussion: """
            A folder tree is the whole configuration: network-exchanges/api/user/POST/configuration.json \
            holds the responses for POST /api/user.
            """,
        subcommands: [
            Run.definition, Record.definition, Endpoints.definition, Explain.definition, Init.definition,
            Import.definition,
        ],
        make: nil
    )

    static func main() {
        do {
            switch try CommandLineParser(root: root).parse(Array(CommandLine.arguments.dropFirst())) {
            case .help(let command): print(HelpPage(command: command).text)
            case .version: print(EspressoMartiniVersion.current)
            case .completionScript(let shell): print(shell.script(for: root), terminator: "")
            case .command(let command): try command.run()
            }
        } catch let error as UsageError {
            StandardError.printLine(error.report)
            exit(ExitStatus.usageError.code)
        } catch let status as ExitStatus {
            exit(status.code)
        } catch {
            StandardError.printLine("espressomartini: \(error)")
            exit(1)
        }
    }
}
