/// A command as the parser, the help page and the completion scripts see it: its name, its text and its options.
/// A program is a root command (named after the program) and the subcommands typed after it, one level deep.
public struct CommandDefinition: Sendable {
    /// Reads a command's checked options into something to run, or throws a `UsageError` for a bad value.
    public typealias Make = @Sendable (ParsedArguments) throws(UsageError) -> any Command

    /// `run`; the program's name for the root command.
    public let name: String
    public let abstract: String
    public let discussion: String
    /// The command's own options; `options` adds those every command takes.
    public let ownOptions: [OptionDefinition]
    /// The commands typed after the root one (`run`, `endpoints`), as the root's help page lists them.
    public let subcommands: [CommandDefinition]
    /// The words after the options, in order, the required ones first (`init [<dir>]`, `explain <method> <target>`).
    public let positionals: [PositionalArgument]
    /// Nil for a root with subcommands and for `help`, which print help pages.
    public let make: Make?
    /// The root's name for a subcommand, nil for the root; set when the root takes the subcommand.
    public private(set) var programName: String?

    /// A command; a root command takes `subcommands` (which have none of their own) as its own.
    public init(
        name: String, abstract: String, discussion: String = "", options: [OptionDefinition] = [],
        positionals: [PositionalArgument] = [], subcommands: [CommandDefinition] = [], make: Make?
    ) {
        precondition(
            !positionals.drop { $0.isRequired }.contains { $0.isRequired }, "required positional arguments come first")
        self.positionals = positionals
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.ownOptions = options
        precondition(subcommands.allSatisfy(\.subcommands.isEmpty), "subcommands are one level deep")
        self.subcommands = subcommands.map { $0.placed(under: name) }
        self.make = make
    }

    /// The name of the built-in `help` command.
    public static let helpCommandName = "help"

    /// `program help [COMMAND]`: built in like `--help`, offered by the completion scripts but not listed on
    /// the root's help page (as with swift-argument-parser).
    var helpCommand: CommandDefinition {
        CommandDefinition(name: Self.helpCommandName, abstract: "Show subcommand help information.", make: nil).placed(
            under: name)
    }

    public var isRoot: Bool { programName == nil }
    public var isHelp: Bool { !isRoot && name == Self.helpCommandName }

    /// As typed: `espressomartini run`.
    public var invocation: String { programName.map { "\($0) \(name)" } ?? name }

    /// Every option it reads, in the help page's order.
    public var options: [OptionDefinition] { ownOptions + [.versionFlag, .helpFlag, .generateCompletionScript] }

    /// The options the help page and the completion scripts show.
    public var visibleOptions: [OptionDefinition] { options.filter { !$0.isHidden } }

    /// The commands that may follow the root one on the command line, `help` included.
    public var commandsAccepted: [CommandDefinition] { subcommands.isEmpty ? [] : subcommands + [helpCommand] }

    public func subcommand(named name: String) -> CommandDefinition? { commandsAccepted.first { $0.name == name } }

    public func option(spelled spelling: String) -> OptionDefinition? {
        options.first { $0.spellings.contains(spelling) }
    }

    /// `espressomartini run [--configuration <file>] … [--log-level <level>]`, `espressomartini <subcommand>`.
    public var usage: String {
        if !subcommands.isEmpty { return "\(invocation) <subcommand>" }
        if isHelp { return "\(invocation) [<subcommands> ...]" }
        let options = ownOptions.filter { !$0.isHidden }.map { "[\($0.synopsis)\($0.isRepeatable ? " ..." : "")]" }
        return ([invocation] + options + positionals.map(\.synopsis)).joined(separator: " ")
    }

    private func placed(under root: String) -> CommandDefinition {
        var placed = self
        placed.programName = root
        return placed
    }
}
