/// The shells `--generate-completion-script` writes a script for.
public enum CompletionShell: String, CaseIterable, Sendable {
    // In the order the error for an unknown shell lists them, as it always has.
    case zsh, bash, fish

    public static func named(_ name: String, in command: CommandDefinition) throws(UsageError) -> CompletionShell {
        guard let shell = CompletionShell(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: " ")
            throw UsageError(
                message:
                    "Can't generate completion scripts for '\(name)'.\nPlease use --generate-completion-script=<shell> with one of:\n    \(names)",
                command: command
            )
        }
        return shell
    }

    /// The commands a script offers after `command`: after the program name, its commands (`help` too); after
    /// `help`, the commands it describes.
    static func commands(after command: CommandDefinition, root: CommandDefinition) -> [CommandDefinition] {
        command.isHelp ? root.subcommands : command.commandsAccepted
    }

    /// The script completing `root`'s commands, options and values.
    public func script(for root: CommandDefinition) -> String {
        switch self {
        case .bash: BashCompletionScript(root: root).text
        case .zsh: ZshCompletionScript(root: root).text
        case .fish: FishCompletionScript(root: root).text
        }
    }
}
