/// One `--name` option or flag of a command. The parser reads it, the help page shows it and the completion
/// scripts offer it from this one value, so that the three cannot disagree.
struct OptionDefinition: Sendable {
    /// What follows the option on the command line.
    enum Kind: Sendable {
        /// Nothing: `--json`.
        case flag
        case text
        case integer
        case number

        /// Numbers may be negative, so `--port -1` reads `-1` as the value (then rejected with a clear message)
        /// rather than as an unknown option; text options stop at anything that looks like an option.
        var takesValueStartingWithDash: Bool { self == .integer || self == .number }
    }

    /// The long name without its dashes: `port` for `--port`.
    let name: String
    /// A one-letter alias: `h` for `-h`.
    let shortName: Character?
    let kind: Kind
    /// What the usage and help lines call the value: `n` in `--port <n>`; nil for a flag.
    let valueName: String?
    let help: String
    /// What a shell offers for the value.
    let completion: ValueCompletion
    /// Read, but neither shown in the help nor offered by the completion scripts.
    let isHidden: Bool

    static func flag(_ name: String, shortName: Character? = nil, help: String) -> OptionDefinition {
        OptionDefinition(name: name, shortName: shortName, kind: .flag, valueName: nil, help: help, completion: .nothing, isHidden: false)
    }

    static func option(
        _ name: String, _ kind: Kind = .text, valueName: String, help: String, completion: ValueCompletion = .nothing, isHidden: Bool = false
    ) -> OptionDefinition {
        OptionDefinition(name: name, shortName: nil, kind: kind, valueName: valueName, help: help, completion: completion, isHidden: isHidden)
    }

    /// Every command takes these two.
    static let versionFlag = flag("version", help: "Show the version.")
    static let helpFlag = flag("help", shortName: "h", help: "Show help information.")
    /// Used by `make install` and the package; every command takes it, as it did with swift-argument-parser.
    static let generateCompletionScript = option(
        "generate-completion-script", valueName: "shell", help: "Print a completion script for the shell.",
        completion: .words(CompletionShell.allCases.map(\.rawValue)), isHidden: true
    )

    /// `--port`.
    var longSpelling: String { "--" + name }

    /// Every way to type it: `-h`, `--help`.
    var spellings: [String] { (shortName.map { ["-\($0)"] } ?? []) + [longSpelling] }

    /// `--port <n>`, as the usage line and error messages show it.
    var synopsis: String { valueName.map { "\(longSpelling) <\($0)>" } ?? longSpelling }

    /// `-h, --help` or `--port <n>`, as the help page's first column shows it.
    var helpLabel: String { (shortName.map { "-\($0), " } ?? "") + synopsis }
}
