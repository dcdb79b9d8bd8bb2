import EspressoMartini

/// A command line that cannot be run as typed: reported on standard error with the command's usage, exit 64.
public struct UsageError: Error, Sendable {
    public let message: String
    /// Whose usage line follows the message; the parser sets the command as the root holds it.
    public internal(set) var command: CommandDefinition
    /// The option the message is about, for a `Help:` line with its description.
    public let option: OptionDefinition?

    public init(message: String, command: CommandDefinition, option: OptionDefinition? = nil) {
        self.message = message
        self.command = command
        self.option = option
    }

    public static func unknownOption(_ spelling: String, in command: CommandDefinition) -> UsageError {
        var message = "Unknown option '\(spelling)'"
        let name = String(spelling.drop { $0 == "-" })
        if let closest = Suggestion.closest(to: name, among: command.visibleOptions.map(\.name)) {
            message += ". Did you mean '--\(closest)'?"
        }
        return UsageError(message: message, command: command)
    }

    public static func unexpectedArgument(_ argument: String, in command: CommandDefinition) -> UsageError {
        UsageError(message: "Unexpected argument '\(argument)'", command: command)
    }

    public static func missingArgument(_ argument: PositionalArgument, in command: CommandDefinition) -> UsageError {
        UsageError(message: "Missing expected argument '\(argument.synopsis)'", command: command)
    }

    public static func missingValue(for option: OptionDefinition, in command: CommandDefinition) -> UsageError {
        UsageError(message: "Missing value for '\(option.synopsis)'", command: command, option: option)
    }

    public static func invalidValue(
        _ value: String, for option: OptionDefinition, in command: CommandDefinition
    ) -> UsageError {
        UsageError(
            message: "The value '\(value)' is invalid for '\(option.synopsis)'", command: command, option: option)
    }

    public static func unwantedValue(
        _ value: String, for option: OptionDefinition, in command: CommandDefinition
    ) -> UsageError {
        UsageError(
            message: "The option '\(option.longSpelling)' does not take any value, but '\(value)' was specified.",
            command: command)
    }

    /// What standard error shows, as swift-argument-parser wrote it:
    ///
    ///     Error: Missing value for '--port <n>'
    ///     Help:  --port <n>  The port; 0 lets the system pick.
    ///     Usage: espressomartini run [--configuration <file>] …
    ///       See 'espressomartini run --help' for more information.
    public var report: String {
        var lines = ["Error: \(message)"]
        if let option { lines.append("Help:  \(option.synopsis)  \(option.help)") }
        lines.append("Usage: \(command.usage)")
        lines.append("  See '\(command.invocation) --help' for more information.")
        return lines.joined(separator: "\n")
    }
}
