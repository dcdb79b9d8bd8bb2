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
                lines.append(
                    "            \(option.longSpelling)) \(positionalCompletion(option.completion) ?? "")return ;;")
            }
            lines.append("        esac")
        }
        lines += positionalCase(command, valueOptions: valueOptions)
        let words =
            CompletionShell.commands(after: command, root: root).map(\.name)
            + command.visibleOptions.flatMap(\.spellings)
        lines.append(#"        _\#(program)_words "$current" \#(ShellQuoting.posix(ShellQuoting.wordList(words)))"#)
        lines.append("        ;;")
        return lines.map { $0 + "\n" }.joined()
    }

    /// For a command with positional arguments, the lines completing the one being typed: the words before it
    /// that are neither options nor their values say which it is.
    private func positionalCase(_ command: CommandDefinition, valueOptions: [OptionDefinition]) -> [String] {
        let completions = command.positionals.map { positionalCompletion($0.completion) }
        guard completions.contains(where: { $0 != nil }) else { return [] }
        // One word needs no counting: any word that is not an option is it.
        if completions.count == 1, let completion = completions[0] {
            return [#"        if [[ $current != -* ]]; then \#(completion)return; fi"#]
        }
        var lines = [
            #"        if [[ $current != -* ]]; then"#,
            "            local index position=0",
            "            for ((index = 2; index < COMP_CWORD; index++)); do",
            "                case ${COMP_WORDS[index]} in",
        ]
        if !valueOptions.isEmpty {
            let spellings = valueOptions.flatMap(\.spellings).joined(separator: "|")
            lines.append(
                #"                    \#(spellings)) [[ ${COMP_WORDS[index+1]} == = ]] && ((index++)); ((index++)) ;;"#)
        }
        lines += [
            "                    -*|=) ;;",
            "                    *) ((position++)) ;;",
            "                esac",
            "            done",
            "            case $position in",
        ]
        for (position, completion) in completions.enumerated() {
            if let completion { lines.append("                \(position)) \(completion)return ;;") }
        }
        lines += ["            esac", "        fi"]
        return lines
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
