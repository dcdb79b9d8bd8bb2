/// The zsh completion script: one `_arguments` call per command, with a state machine at the root that
/// offers the commands and hands the rest of the line to the chosen command's function.
struct ZshCompletionScript {
    let root: CommandDefinition

    var text: String {
        let program = root.name
        return """
            #compdef \(program)
            # zsh completion for \(program), written by `\(program) --generate-completion-script zsh`.

            \(([rootFunction()] + root.commandsAccepted.map(commandFunction)).joined(separator: "\n"))
            # Run when autoloaded from fpath; registered when sourced.
            if [[ ${funcstack[1]} == _\(program) ]]; then
                _\(program) "$@"
            else
                compdef _\(program) \(program)
            fi

            """
    }

    /// `_espressomartini`: the root's options, then the commands, then the chosen command's function for the
    /// rest of the line.
    private func rootFunction() -> String {
        let commands = CompletionShell.commands(after: root, root: root)
        let specs =
            root.visibleOptions.map(optionSpec) + [
                ShellQuoting.posix("(-): :->command"), ShellQuoting.posix("(-)*:: :->argument"),
            ]
        let descriptions = commands.map { ShellQuoting.posix(escaped($0.name) + ":" + $0.abstract) }
        let cases = commands.map { "\($0.name)) \(functionName($0)) && ret=0 ;;" }
        return """
            \(functionName(root))() {
                local context state state_descr line
                local -A opt_args
                local -i ret=1
                _arguments -s -S \\
                    \(specs.joined(separator: " \\\n        ")) && ret=0
                case $state in
                    command)
                        local -a commands=(
                            \(descriptions.joined(separator: "\n                "))
                        )
                        _describe -t commands command commands && ret=0
                        ;;
                    argument)
                        case $words[1] in
                            \(cases.joined(separator: "\n                "))
                        esac
                        ;;
                esac
                return ret
            }

            """
    }

    /// `_espressomartini_run`: a command's options, and for `help` the command to describe.
    private func commandFunction(_ command: CommandDefinition) -> String {
        var specs = command.visibleOptions.map(optionSpec)
        let following = CompletionShell.commands(after: command, root: root)
        if !following.isEmpty {
            specs.append(ShellQuoting.posix(":command:(\(ShellQuoting.wordList(following.map(\.name))))"))
        }
        for positional in command.positionals {
            let colons = positional.isRequired ? ":" : "::"
            specs.append(ShellQuoting.posix("\(colons)\(escaped(positional.name)):\(action(positional.completion))"))
        }
        return """
            \(functionName(command))() {
                _arguments -s -S \\
                    \(specs.joined(separator: " \\\n        "))
            }

            """
    }

    private func functionName(_ command: CommandDefinition) -> String {
        "_\(root.name)" + (command.isRoot ? "" : "_\(command.name)")
    }

    /// `'--port=[The port; 0 lets the system pick.]:n:'` or `'(-h --help)'{-h,--help}'[Show help information.]'`:
    /// the name (`=` when it takes a value, so that `--port=8080` completes too), the description, and for
    /// a value its name and what completes it.
    private func optionSpec(_ option: OptionDefinition) -> String {
        let value = option.valueName.map { ":\(escaped($0)):\(action(option.completion))" } ?? ""
        let description = "[\(escaped(option.help))]" + value
        if let shortName = option.shortName {
            let short = "-\(shortName)"
            return ShellQuoting.posix("(\(short) \(option.longSpelling))") + "{\(short),\(option.longSpelling)}"
                + ShellQuoting.posix(description)
        }
        return ShellQuoting.posix(option.longSpelling + (option.kind == .flag ? "" : "=") + description)
    }

    /// The `_arguments` action completing a value.
    private func action(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: ""
        case .files: "_files"
        case .directories: "_files -/"
        case .words(let words): "(\(ShellQuoting.wordList(words)))"
        }
    }

    /// `_arguments` reads `\`, `[`, `]` and `:` in a description as syntax unless escaped.
    private func escaped(_ text: String) -> String {
        text.map { "\\[]:".contains($0) ? "\\\($0)" : String($0) }.joined()
    }
}
