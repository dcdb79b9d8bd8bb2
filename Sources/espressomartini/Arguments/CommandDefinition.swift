/// A command as the parser, the help page and the completion scripts see it: its name, its text and its options.
struct CommandDefinition: Sendable {
    static let programName = "espressomartini"

    /// Reads a command's checked options into something to run, or throws a `UsageError` for a bad value.
    typealias Make = @Sendable (ParsedArguments) throws(UsageError) -> any Command

    /// `run`; the program's name for the root command.
    let name: String
    let abstract: String
    let discussion: String
    /// The command's own options; `options` adds those every command takes.
    let ownOptions: [OptionDefinition]
    /// The commands typed after the root one (`run`, `endpoints`), as the root's help page lists them.
    let subcommands: [CommandDefinition]
    /// The optional word after the options, for commands that take one (`init [<dir>]`).
    let positional: PositionalArgument?
    /// Nil for the root and `help`, which print help pages.
    let make: Make?

    init(
        name: String, abstract: String, discussion: String = "", options: [OptionDefinition] = [],
        positional: PositionalArgument? = nil, subcommands: [CommandDefinition] = [], make: Make?
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.ownOptions = options
        self.positional = positional
        self.subcommands = subcommands
        self.make = make
    }

    /// `espressomartini help [COMMAND]`: built in like `--help`, offered by the completion scripts but not
    /// listed on the root's help page (as with swift-argument-parser).
    static let helpCommand = CommandDefinition(name: "help", abstract: "Show subcommand help information.", make: nil)

    var isRoot: Bool { name == Self.programName }
    var isHelp: Bool { name == Self.helpCommand.name }

    /// As typed: `espressomartini run`.
    var invocation: String { isRoot ? name : "\(Self.programName) \(name)" }

    /// Every option it reads, in the help page's order.
    var options: [OptionDefinition] { ownOptions + [.versionFlag, .helpFlag, .generateCompletionScript] }

    /// The options the help page and the completion scripts show.
    var visibleOptions: [OptionDefinition] { options.filter { !$0.isHidden } }

    /// The commands that may follow the root one on the command line, `help` included.
    var commandsAccepted: [CommandDefinition] { subcommands.isEmpty ? [] : subcommands + [Self.helpCommand] }

    func subcommand(named name: String) -> CommandDefinition? { commandsAccepted.first { $0.name == name } }

    func option(spelled spelling: String) -> OptionDefinition? { options.first { $0.spellings.contains(spelling) } }

    /// `espressomartini run [--configuration <file>] … [--log-level <level>]`, `espressomartini <subcommand>`.
    var usage: String {
        if !subcommands.isEmpty { return "\(invocation) <subcommand>" }
        if isHelp { return "\(invocation) [<subcommands> ...]" }
        let options = ownOptions.filter { !$0.isHidden }.map { "[\($0.synopsis)]" }
        return ([invocation] + options + (positional.map { [$0.synopsis] } ?? [])).joined(separator: " ")
    }
}
