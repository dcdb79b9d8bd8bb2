/// The fish completion script: one `complete` line per command, option and command name, each under the
/// condition that the first argument typed is that command (none typed yet for the root).
struct FishCompletionScript {
    let root: CommandDefinition

    var text: String {
        let program = root.name
        let lines = ([root] + root.commandsAccepted).flatMap(completions)
        return """
            # fish completion for \(program), written by `\(program) --generate-completion-script fish`.

            # Whether the command typed, the first argument, is $argv[1] ('' for none yet).
            function __\(program)_command_is
                set -l tokens (commandline -opc)
                test "$tokens[2]" = "$argv[1]"
            end

            # No file names, except where an option's value is one.
            complete -c \(program) -f
            \(lines.joined(separator: "\n"))

            """
    }

    /// The `complete` lines for a command's options and for the commands that may follow it.
    private func completions(_ command: CommandDefinition) -> [String] {
        // Command names are plain words; the root's is the empty word.
        let condition = ShellQuoting.fish("__\(root.name)_command_is " + (command.isRoot ? "\"\"" : command.name))
        let start = "complete -c \(root.name) -n \(condition)"
        let options = command.visibleOptions.map { option in
            let names = (option.shortName.map { " -s \($0)" } ?? "") + " -l \(option.name)"
            return start + names + valueCompletion(option) + " -d " + ShellQuoting.fish(option.help)
        }
        let commands = CompletionShell.commands(after: command, root: root).map { following in
            "\(start) -a \(ShellQuoting.fish(following.name)) -d \(ShellQuoting.fish(following.abstract))"
        }
        // fish does not tell positional arguments apart: what completes any of them is offered.
        let positional: [String] = command.positionals.compactMap { argument in
            switch argument.completion {
            case .directories: start + " -a '(__fish_complete_directories)'"
            case .files: start + " -F"
            case .words(let words): start + " -a " + ShellQuoting.fish(ShellQuoting.wordList(words))
            case .nothing: nil
            }
        }
        return options + commands + positional
    }

    /// ` -x -a 'TRACE DEBUG …'`: whether the option takes a value (`-r`), and what completes it; `-x` is `-r`
    /// without file names.
    private func valueCompletion(_ option: OptionDefinition) -> String {
        guard option.kind != .flag else { return "" }
        return switch option.completion {
        case .nothing: " -x"
        case .files: " -r -F"
        case .directories: " -x -a '(__fish_complete_directories)'"
        case .words(let words): " -x -a " + ShellQuoting.fish(ShellQuoting.wordList(words))
        }
    }
}
