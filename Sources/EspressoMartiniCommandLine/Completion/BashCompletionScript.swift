/// The bash completion script: per command (the first argument), its options, the values an option takes
/// (files, folders, a list of words), the commands after the program name and after `help`.
struct BashCompletionScript {
    let root: CommandDefinition

    var text: String {
        let program = root.name
        return """
            # bash completion for \(program), written by `\(program) --generate-completion-script bash`.

            _\(program)() {
                local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]}
                # bash splits `--option=value` into `--option`, `=` and `value`.
                if [[ $current == "=" ]]; then
                    current=""
                elif [[ $previous == "=" ]]; then
                    previous=${COMP_WORDS[COMP_CWORD-2]}
                fi
                # The command is the first argument; none while that is being typed.
                local command=""
                if [[ $COMP_CWORD -gt 1 ]]; then command=${COMP_WORDS[1]}; fi
                COMPREPLY=()
                case $command in
            \(([root] + root.commandsAccepted).map(commandCase).joined())\
                esac
            }

            # _\(program)_words TYPED WORDS: the words that start with what is typed.
            _\(program)_words() {
                mapfile -t COMPREPLY < <(compgen -W "$2" -- "$1")
            }

            # _\(program)_paths TYPED -f|-d: file or folder names.
            _\(program)_paths() {
                compopt -o filenames 2> /dev/null
                mapfile -t COMPREPLY < <(compgen "$2" -- "$1")
            }

            complete -F _\(program) \(program)

            """
    }

    /// `run) …;;`: the value of the option just typed, else the command's options and the commands it takes.
    private func commandCase(_ command: CommandDefinition) -> String {
        let program = root.name
        let valueOptions = command.visibleOptions.filter { $0.kind != .flag }
        var lines = ["    \(command.isRoot ? "\"\"" : command.name))"]
        if !valueOptions.isEmpty {
            lines.append("        case $previous in")
            for option in valueOptions {
                lines.append("            \(option.longSpelling)) \(positionalCompletion(option.completion) ?? "")return ;;")
            }
            lines.append("        esac")
        }
        if let positional = command.positional, let completion = positionalCompletion(positional.completion) {
            lines.append(#"        if [[ $current != -* ]]; then \#(completion)return; fi"#)
        }
        let words = CompletionShell.commands(after: command, root: root).map(\.name) + command.visibleOptions.flatMap(\.spellings)
        lines.append(#"        _\#(program)_words "$current" \#(ShellQuoting.posix(ShellQuoting.wordList(words)))"#)
        lines.append("        ;;")
        return lines.map { $0 + "\n" }.joined()
    }

    /// The call completing a value, ending in `; `; nil when nothing completes it.
    private func positionalCompletion(_ completion: ValueCompletion) -> String? {
        let program = root.name
        return switch completion {
        case .nothing: nil
        case .files: #"_\#(program)_paths "$current" -f; "#
        case .directories: #"_\#(program)_paths "$current" -d; "#
        case .words(let words): #"_\#(program)_words "$current" \#(ShellQuoting.posix(ShellQuoting.wordList(words))); "#
        }
    }
}
