/// One `--name` option or flag of a command. The parser reads it, the help page shows it and the completion
/// scripts offer it from this one value, so that the three cannot disagree.
public struct OptionDefinition: Sendable {
    /// What follows the option on the command line.
    public enum Kind: Sendable {
        /// Nothing: `--json`.
        case flag
        case text
        case integer
        case number
        /// An integer `N`, or a range `A-B` of them: `--port 8080-8090`.
        case integerRange

        /// Numbers may be negative, so `--port -1` reads `-1` as the value (then rejected with a clear message)
        /// rather than as an unknown option; text options stop at anything that looks like an option.
        public var takesValueStartingWithDash: Bool { self == .integer || self == .number || self == .integerRange }
    }

    /// The long name without its dashes: `port` for `--port`.
    public let name: String
    /// A one-letter alias: `h` for `-h`.
    public let shortName: Character?
    public let kind: Kind
    /// What the usage and help lines call the value: `n` in `--port <n>`; nil for a flag.
    public let valueName: String?
    public let help: String
    /// What a shell offers for the value.
    public let completion: ValueCompletion
    /// Read, but neither shown in the help nor offered by the completion scripts.
    public let isHidden: Bool
    /// Given any number of times, every value kept (`--header A --header B`); otherwise the last one wins.
    public let isRepeatable: Bool

    public static func flag(_ name: String, shortName: Character? = nil, help: String) -> OptionDefinition {
        OptionDefinition(
            name: name, shortName: shortName, kind: .flag, valueName: nil, help: help, completion: .nothing,
            isHidden: false, isRepeatable: false
        )
    }

    public static func option(
        _ name: String, _ kind: Kind = .text, valueName: String, help: String, completion: ValueCompletion = .nothing,
        isHidden: Bool = false,
        isRepeatable: Bool = false
    ) -> OptionDefinition {
        OptionDefinition(
            name: name, shortName: nil, kind: kind, valueName: valueName, help: help, completion: completion,
            isHidden: isHidden,
            isRepeatable: isRepeatable
        )
    }

    /// Every command takes these two.
    public static let versionFlag = flag("version", help: "Show the version.")
    public static let helpFlag = flag("help", shortName: "h", help: "Show help information.")
    /// Used by `make install` and the package; every command takes it, as it did with swift-argument-parser.
    public static let generateCompletionScript = option(
        "generate-completion-script", valueName: "shell", help: "Print a completion script for the shell.",
        completion: .words(CompletionShell.allCases.map(\.rawValue)), isHidden: true
    )

    /// `--port`.
    public var longSpelling: String { "--" + name }

    /// Every way to type it: `-h`, `--help`.
    public var spellings: [String] { (shortName.map { ["-\($0)"] } ?? []) + [longSpelling] }

    /// `--port <n>`, as the usage line and error messages show it.
    public var synopsis: String { valueName.map { "\(longSpelling) <\($0)>" } ?? longSpelling }

    /// `-h, --help` or `--port <n>`, as the help page's first column shows it.
    public var helpLabel: String { (shortName.map { "-\($0), " } ?? "") + synopsis }
}
