import EspressoMartiniCommandLine

/// A program made for the tests, `tool`, with every kind of option: `serve` takes text, integer, number,
/// word, file and folder values, a flag with a short name and a hidden option, and checks its count itself;
/// `list` takes one flag; `send` takes two required words, an optional one and a repeatable option. Help texts hold the characters the completion scripts must quote.
enum TestProgram {
    static let name = OptionDefinition.option("name", valueName: "text", help: "The name; it's 'quoted' [really]: yes.")
    static let count = OptionDefinition.option("count", .integer, valueName: "n", help: "How many, at most 100.")
    static let ratio = OptionDefinition.option("ratio", .number, valueName: "x", help: "A ratio, negative or not.")
    static let level = OptionDefinition.option(
        "level", valueName: "level", help: "LOW, MID or HIGH.", completion: .words(["LOW", "MID", "HIGH"])
    )
    static let input = OptionDefinition.option("input", valueName: "file", help: "The input file.", completion: .files)
    static let output = OptionDefinition.option(
        "output-dir", valueName: "dir", help: "Where results go.", completion: .directories)
    static let verbose = OptionDefinition.flag("verbose", shortName: "v", help: "Say more.")
    static let secret = OptionDefinition.option("secret", valueName: "s", help: "Read but never shown.", isHidden: true)
    static let json = OptionDefinition.flag("json", help: "Print JSON.")

    static let serve: CommandDefinition = CommandDefinition(
        name: "serve", abstract: "Serve things until stopped.", discussion: "A longer text about serving.",
        options: [name, count, ratio, level, input, output, verbose, secret],
        make: { arguments throws(UsageError) in
            if let value = arguments.integer(TestProgram.count), value > 100 {
                throw UsageError(message: "--count must be at most 100", command: TestProgram.serve)
            }
            return Made(command: "serve", arguments: arguments)
        }
    )

    static let list = CommandDefinition(
        name: "list", abstract: "List the things.", options: [json], make: { Made(command: "list", arguments: $0) }
    )

    static let header = OptionDefinition.option(
        "header", valueName: "header", help: "A header; give it once per header.", isRepeatable: true)
    static let method = PositionalArgument(
        name: "method", help: "The method.", completion: .words(["GET", "POST"]), isRequired: true)
    static let target = PositionalArgument(
        name: "target", help: "Where to send it.", completion: .nothing, isRequired: true)
    static let note = PositionalArgument(name: "note", help: "A file of notes.", completion: .files)

    static let send = CommandDefinition(
        name: "send", abstract: "Send a request.", options: [header, name], positionals: [method, target, note],
        make: { Made(command: "send", arguments: $0) }
    )

    static let root = CommandDefinition(
        name: "tool", abstract: "A tool for the tests.", discussion: "It does nothing.",
        subcommands: [serve, list, send], make: nil
    )

    static let parser = CommandLineParser(root: root)

    /// The commands as the root holds them, for the help pages and completion scripts.
    static var commands: [CommandDefinition] { [root] + root.subcommands }

    /// What the parser made for a command: its name and the options it read.
    struct Made: Command {
        let command: String
        let arguments: ParsedArguments

        func run() {}
    }
}
