@testable import EspressoMartiniCommandLine
import Testing

/// The bash, zsh and fish scripts of `TestProgram`: every command, every flag the help pages show, the
/// values an option takes, and nothing hidden.
@Suite struct CompletionScriptTests {
    static func script(_ shell: CompletionShell) -> String { shell.script(for: TestProgram.root) }

    /// How the script names an option: fish without its dashes.
    static func spellings(of option: OptionDefinition, in shell: CompletionShell) -> [String] {
        guard shell == .fish else { return option.spellings }
        return (option.shortName.map { ["-s \($0)"] } ?? []) + ["-l \(option.name)"]
    }

    @Test(arguments: CompletionShell.allCases)
    func offersEveryCommandAndEveryVisibleFlag(_ shell: CompletionShell) {
        let script = Self.script(shell)
        #expect(script.contains(TestProgram.root.name))
        for command in TestProgram.root.commandsAccepted {
            #expect(script.contains(command.name), "\(shell) lacks \(command.name)")
        }
        for command in TestProgram.commands + [TestProgram.root.subcommand(named: "help")!] {
            for option in command.visibleOptions {
                for spelling in Self.spellings(of: option, in: shell) {
                    #expect(script.contains(spelling), "\(shell) does not offer \(command.invocation) \(spelling)")
                }
            }
        }
        #expect(!script.contains("secret"), "\(shell) offers a hidden option")
        #expect(script.contains("LOW MID HIGH"), "\(shell) lacks the words of --level")
    }

    /// Each option sits in the part of the script for its own command: `--json` is `list`'s alone.
    @Test(arguments: CompletionShell.allCases)
    func offersEachOptionForItsCommandOnly(_ shell: CompletionShell) {
        let script = Self.script(shell)
        let jsonLines = script.split(separator: "\n").filter { $0.contains(shell == .fish ? "-l json" : "--json") }
        #expect(!jsonLines.isEmpty)
        switch shell {
        case .fish: #expect(jsonLines.allSatisfy { $0.contains("__tool_command_is list") })
        case .bash, .zsh: #expect(jsonLines.allSatisfy { !$0.contains("--name") })
        }
    }

    @Test(arguments: [("it's", "'it'\\''s'"), ("plain", "'plain'"), ("", "''")])
    func posixQuotingSurvivesApostrophes(_ text: String, _ quoted: String) {
        #expect(ShellQuoting.posix(text) == quoted)
    }

    @Test(arguments: [("it's", "'it\\'s'"), ("a\\b", "'a\\\\b'")])
    func fishQuotingEscapesApostrophesAndBackslashes(_ text: String, _ quoted: String) {
        #expect(ShellQuoting.fish(text) == quoted)
    }

    /// The words of a positional argument are offered where that argument is typed: bash counts the words
    /// before it, zsh numbers its specs (one colon for a required one), fish offers them for the command.
    @Test(arguments: [
        (
            CompletionShell.bash,
            [
                #"0) _tool_words "$current" 'GET POST'; return ;;"#, #"2) _tool_paths "$current" -f; return ;;"#,
                "--header|--name)",
            ]
        ),
        (.zsh, ["':method:(GET POST)'", "':target:'", "'::note:_files'"]),
        (
            .fish,
            [
                "complete -c tool -n '__tool_command_is send' -a 'GET POST'",
                "complete -c tool -n '__tool_command_is send' -F",
            ]
        ),
    ])
    func completesPositionalArgumentsInTheirPlace(_ shell: CompletionShell, _ fragments: [String]) {
        let script = Self.script(shell)
        for fragment in fragments { #expect(script.contains(fragment), "\(shell) lacks \(fragment)") }
    }
}
