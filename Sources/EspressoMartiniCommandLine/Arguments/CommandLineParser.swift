/// Reads a command line: `program [COMMAND] [--option value | --option=value | --flag]…`.
///
/// It keeps the precedence of swift-argument-parser, which the project used before: a missing or malformed
/// value is reported first; then `--help` wins, then `--version`, then `--generate-completion-script`; then
/// unknown options and stray words are reported; and only then does the command check its values (a port out
/// of range, a negative delay), so that `run --port 99999 --help` still shows the help.
public struct CommandLineParser: Sendable {
    public let root: CommandDefinition

    public init(root: CommandDefinition) {
        self.root = root
    }

    /// What `arguments` (the command line without the program's name) ask for, or the first problem in them.
    public func parse(_ arguments: [String]) throws(UsageError) -> CommandLineRequest {
        let command = arguments.first.flatMap(root.subcommand(named:)) ?? root
        let (parsed, unexpected) = try read(command.isRoot ? arguments[...] : arguments.dropFirst(), for: command)

        // `help --help` describes the program, as it always did.
        if parsed.isSet(.helpFlag) { return .help(command.isHelp ? root : command) }
        if parsed.isSet(.versionFlag) { return .version }
        if let shell = parsed.text(.generateCompletionScript) {
            return .completionScript(try CompletionShell.named(shell, in: command))
        }
        if let unexpected { throw unexpected }
        if let missing = command.positionals.dropFirst(parsed.words.count).first(where: \.isRequired) {
            throw .missingArgument(missing, in: command)
        }
        if command.isHelp { return .help(parsed.words.first.flatMap(root.subcommand(named:)) ?? root) }
        // The root alone (no arguments at all, say) prints its help.
        guard let make = command.make else { return .help(command) }
        do {
            return .command(try make(parsed))
        } catch {
            // A command's own checks name its definition as declared: report them with the usage it has here.
            var error = error
            error.command = command
            throw error
        }
    }

    /// The options and words of `command`, and the first unknown option or stray word (which `--help` and
    /// `--version` still override). Throws at the first missing or malformed value.
    private func read(
        _ arguments: ArraySlice<String>, for command: CommandDefinition
    ) throws(UsageError) -> (ParsedArguments, UsageError?) {
        var arguments = arguments
        var parsed = ParsedArguments()
        var unexpected: UsageError?
        var onlyWordsFollow = false
        while let argument = arguments.popFirst() {
            guard !onlyWordsFollow, argument.hasPrefix("-"), argument != "-" else {
                if command.isHelp || parsed.words.count < command.positionals.count {
                    parsed.append(word: argument)
                } else {
                    unexpected = unexpected ?? .unexpectedArgument(argument, in: command)
                }
                continue
            }
            if argument == "--" {
                onlyWordsFollow = true
                continue
            }
            // `--name=value` carries its value in the same argument.
            let spelling = argument.hasPrefix("--") ? String(argument.prefix { $0 != "=" }) : argument
            let attachedValue = spelling == argument ? nil : String(argument.dropFirst(spelling.count + 1))
            guard let option = command.option(spelled: spelling) else {
                unexpected = unexpected ?? .unknownOption(spelling, in: command)
                continue
            }
            guard option.kind != .flag else {
                if let attachedValue { throw .unwantedValue(attachedValue, for: option, in: command) }
                parsed.set(option, to: .flag)
                continue
            }
            let value: String
            if let attachedValue, !attachedValue.isEmpty {
                value = attachedValue
            } else if attachedValue == nil, let next = arguments.first,
                option.kind.takesValueStartingWithDash || !next.hasPrefix("-")
            {
                value = next
                arguments.removeFirst()
            } else {
                throw .missingValue(for: option, in: command)
            }
            guard let converted = Self.convert(value, to: option.kind) else {
                throw .invalidValue(value, for: option, in: command)
            }
            parsed.set(option, to: converted)
        }
        return (parsed, unexpected)
    }

    private static func convert(_ value: String, to kind: OptionDefinition.Kind) -> ParsedArguments.Value? {
        switch kind {
        case .flag: .flag
        case .text: .text(value)
        case .integer: Int(value).map { .integer($0) }
        case .number: Double(value).map { .number($0) }
        case .integerRange: Self.integerRange(value)
        }
    }

    /// `N`, or `A-B` with both bounds integers (the dash after the first digit).
    private static func integerRange(_ value: String) -> ParsedArguments.Value? {
        if let single = Int(value) { return .integerRange(single, single) }
        guard let dash = value.dropFirst().firstIndex(of: "-"), let first = Int(value[..<dash]),
            let last = Int(value[value.index(after: dash)...])
        else { return nil }
        return .integerRange(first, last)
    }
}
