@testable import EspressoMartiniCommandLine
import Testing

/// `CommandLineParser.parse` on `TestProgram`: values read in every form, what wins over what, and the
/// `UsageError` of each mistake with its message and usage line.
@Suite struct CommandLineParserTests {
    /// What a command line asks for, in one line: `help tool serve`, `version`, `completion bash`, `run list`.
    static func describe(_ request: CommandLineRequest) -> String {
        switch request {
        case .help(let command): "help \(command.invocation)"
        case .version: "version"
        case .completionScript(let shell): "completion \(shell.rawValue)"
        case .command(let command): "run " + ((command as? TestProgram.Made)?.command ?? "\(command)")
        }
    }

    static func parsed(_ arguments: [String]) throws -> ParsedArguments {
        let request = try TestProgram.parser.parse(arguments)
        guard case .command(let command) = request, let made = command as? TestProgram.Made else {
            throw UsageError(message: "not a command: \(describe(request))", command: TestProgram.root)
        }
        return made.arguments
    }

    static func usageError(_ arguments: [String]) -> UsageError? {
        do throws(UsageError) {
            _ = try TestProgram.parser.parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (["serve", "--name=x"], "x"),
        (["serve", "--name", "x"], "x"),
        (["serve", "--name", "x", "--name=y"], "y"),
        (["serve", "--name=y", "--name", "x"], "x"),
        (["serve", "--name=a=b"], "a=b"),
        (["serve", "--name", "two words"], "two words"),
        (["serve", "--level", "LOW", "--name", "é"], "é"),
    ])
    func readsTextValuesInEitherFormTheLastOneWinning(_ arguments: [String], _ expected: String) throws {
        #expect(try Self.parsed(arguments).text(TestProgram.name) == expected)
    }

    @Test(arguments: [
        (["serve", "--count", "5"], 5),
        (["serve", "--count=5"], 5),
        (["serve", "--count", "-3"], -3),
        (["serve", "--count=-3"], -3),
        (["serve", "--count", "0"], 0),
        // The last value wins before the command checks it: 1000 alone would be refused.
        (["serve", "--count", "1000", "--count", "2"], 2),
    ])
    func readsIntegersNegativeOnesIncluded(_ arguments: [String], _ expected: Int) throws {
        #expect(try Self.parsed(arguments).integer(TestProgram.count) == expected)
    }

    @Test(
        arguments: [
            (["serve", "--ratio", "0.5"], 0.5),
            (["serve", "--ratio", "-0.5"], -0.5),
            (["serve", "--ratio=-2"], -2),
            (["serve", "--ratio", "3", "--ratio", "-1e3"], -1000),
        ] as [([String], Double)])
    func readsNumbersNegativeOnesIncluded(_ arguments: [String], _ expected: Double) throws {
        #expect(try Self.parsed(arguments).number(TestProgram.ratio) == expected)
    }

    @Test(
        arguments: [
            (["serve"], false, nil),
            (["serve", "--verbose"], true, nil),
            (["serve", "-v", "-v"], true, nil),
            // Hidden options are read like the others.
            (["serve", "--secret", "s"], false, "s"),
        ] as [([String], Bool, String?)])
    func readsFlagsAndHiddenOptions(_ arguments: [String], _ verbose: Bool, _ secret: String?) throws {
        let parsed = try Self.parsed(arguments)
        #expect(parsed.isSet(TestProgram.verbose) == verbose)
        #expect(parsed.text(TestProgram.secret) == secret)
        #expect(!parsed.isSet(TestProgram.name))
    }

    @Test(arguments: [
        // The subcommand runs; the root alone, `help` and `--help` print help pages.
        ([], "help tool"),
        (["list"], "run list"),
        (["serve", "--count", "5"], "run serve"),
        (["--help"], "help tool"),
        (["-h"], "help tool"),
        (["serve", "--help"], "help tool serve"),
        (["serve", "-h"], "help tool serve"),
        (["help"], "help tool"),
        (["help", "serve"], "help tool serve"),
        (["help", "list"], "help tool list"),
        (["help", "unknown"], "help tool"),
        (["help", "--help"], "help tool"),
        // --help wins over unknown options, stray words, values the command would refuse, and --version.
        (["serve", "--bogus", "--help"], "help tool serve"),
        (["list", "stray", "-h"], "help tool list"),
        (["serve", "--count", "1000", "--version", "--help"], "help tool serve"),
        // --version wins over all of them but --help.
        (["--version"], "version"),
        (["serve", "--version"], "version"),
        (["serve", "--bogus", "--version"], "version"),
        (["list", "stray", "--version"], "version"),
        (["serve", "--count", "1000", "--version"], "version"),
        (["--generate-completion-script", "zsh"], "completion zsh"),
        (["--generate-completion-script=bash"], "completion bash"),
        (["serve", "--generate-completion-script", "fish"], "completion fish"),
    ])
    func asksForWhatTheCommandLineSays(_ arguments: [String], _ expected: String) throws {
        #expect(Self.describe(try TestProgram.parser.parse(arguments)) == expected)
    }

    static let serveUsage =
        "Usage: tool serve [--name <text>] [--count <n>] [--ratio <x>] [--level <level>] [--input <file>] [--output-dir <dir>] [--verbose]"

    @Test(arguments: [
        (["serve", "--bogus"], "Unknown option '--bogus'", serveUsage),
        (["serve", "--nmae", "x"], "Unknown option '--nmae'. Did you mean '--name'?", serveUsage),
        (["serve", "-x"], "Unknown option '-x'", serveUsage),
        (["serve", "stray"], "Unexpected argument 'stray'", serveUsage),
        (["serve", "--", "--name"], "Unexpected argument '--name'", serveUsage),
        (["list", "--count", "1"], "Unknown option '--count'", "Usage: tool list [--json]"),
        (["list", "--jsn"], "Unknown option '--jsn'. Did you mean '--json'?", "Usage: tool list [--json]"),
        (["deploy"], "Unexpected argument 'deploy'", "Usage: tool <subcommand>"),
        (["--bogus"], "Unknown option '--bogus'", "Usage: tool <subcommand>"),
        (
            ["list", "--json=yes"], "The option '--json' does not take any value, but 'yes' was specified.",
            "Usage: tool list [--json]"
        ),
        (["serve", "--name"], "Missing value for '--name <text>'", serveUsage),
        (["serve", "--name="], "Missing value for '--name <text>'", serveUsage),
        // A text option does not take an option as its value.
        (["serve", "--name", "--verbose"], "Missing value for '--name <text>'", serveUsage),
        (["serve", "--name", "-1"], "Missing value for '--name <text>'", serveUsage),
        (["serve", "--count", "abc"], "The value 'abc' is invalid for '--count <n>'", serveUsage),
        (["serve", "--count", "1.5"], "The value '1.5' is invalid for '--count <n>'", serveUsage),
        (["serve", "--ratio=soon"], "The value 'soon' is invalid for '--ratio <x>'", serveUsage),
        // A malformed value is reported even before --help.
        (["serve", "--count", "abc", "--help"], "The value 'abc' is invalid for '--count <n>'", serveUsage),
        // The command's own check, with its usage as the root holds it.
        (["serve", "--count", "1000"], "--count must be at most 100", serveUsage),
        (
            ["--generate-completion-script", "ksh"],
            "Can't generate completion scripts for 'ksh'.\nPlease use --generate-completion-script=<shell> with one of:\n    zsh bash fish",
            "Usage: tool <subcommand>"
        ),
    ])
    func reportsEachMistakeWithItsUsage(_ arguments: [String], _ message: String, _ usage: String) throws {
        let error = try #require(Self.usageError(arguments))
        #expect(error.message == message)
        let lines = error.report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Error: " + message.split(separator: "\n").first.map(String.init)!)
        #expect(lines.suffix(2) == [usage, "  See '\(error.command.invocation) --help' for more information."])
        #expect(usage.hasPrefix("Usage: \(error.command.invocation)"))
    }

    /// A mistake about one value names that option on a `Help:` line with its description.
    @Test(
        arguments: [
            (["serve", "--count"], "Help:  --count <n>  How many, at most 100."),
            (["serve", "--ratio", "x"], "Help:  --ratio <x>  A ratio, negative or not."),
            (["serve", "--bogus"], nil),
        ] as [([String], String?)])
    func explainsTheOptionAMistakeIsAbout(_ arguments: [String], _ helpLine: String?) throws {
        let report = try #require(Self.usageError(arguments)).report
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines.first { $0.hasPrefix("Help:") } == helpLine)
    }

    @Test func subcommandsAreInvokedThroughTheirRoot() {
        #expect(TestProgram.root.isRoot)
        #expect(TestProgram.root.invocation == "tool")
        #expect(TestProgram.root.subcommands.map { $0.invocation } == ["tool serve", "tool list", "tool send"])
        #expect(
            TestProgram.root.commandsAccepted.map { $0.invocation } == [
                "tool serve", "tool list", "tool send", "tool help",
            ])
        #expect(TestProgram.root.subcommand(named: "help")?.isHelp == true)
        #expect(TestProgram.root.subcommand(named: "help")?.usage == "tool help [<subcommands> ...]")
    }

    @Test(arguments: [
        (["send", "GET", "/x"], ["GET", "/x"]),
        (["send", "GET", "/x", "notes.txt"], ["GET", "/x", "notes.txt"]),
        (["send", "--name", "n", "POST", "--header", "A: b", "/y"], ["POST", "/y"]),
        (["send", "--", "-GET", "-x"], ["-GET", "-x"]),
        (["send", "GET", "--", "--name"], ["GET", "--name"]),
    ])
    func readsPositionalArgumentsBetweenAndAfterOptions(_ arguments: [String], _ words: [String]) throws {
        #expect(try Self.parsed(arguments).words == words)
    }

    @Test(arguments: [
        (["send", "GET", "/x"], []),
        (["send", "--header", "A: 1", "GET", "/x"], ["A: 1"]),
        (["send", "--header", "A: 1", "GET", "--header=B: 2", "/x", "--header", "A: 3"], ["A: 1", "B: 2", "A: 3"]),
    ])
    func keepsEveryValueOfARepeatableOptionInOrder(_ arguments: [String], _ headers: [String]) throws {
        let parsed = try Self.parsed(arguments)
        #expect(parsed.texts(TestProgram.header) == headers)
        #expect(parsed.text(TestProgram.header) == headers.last)
        #expect(
            try Self.parsed(["send", "--name", "a", "--name", "b", "GET", "/"]).texts(TestProgram.name) == [],
            "not repeatable")
    }

    static let sendUsage = "Usage: tool send [--header <header> ...] [--name <text>] <method> <target> [<note>]"

    @Test(arguments: [
        (["send"], "Missing expected argument '<method>'"),
        (["send", "GET"], "Missing expected argument '<target>'"),
        (["send", "--header", "A: b", "GET"], "Missing expected argument '<target>'"),
        (["send", "GET", "/x", "notes", "more"], "Unexpected argument 'more'"),
        (["send", "--bogus", "GET"], "Unknown option '--bogus'"),
    ])
    func reportsMissingAndExtraPositionalArguments(_ arguments: [String], _ message: String) throws {
        let error = try #require(Self.usageError(arguments))
        #expect(error.message == message)
        #expect(error.report.split(separator: "\n").map(String.init).suffix(2).first == Self.sendUsage)
    }

    @Test(arguments: [
        (["send", "--help"], "help tool send"), (["send", "GET", "--version"], "version"),
        (["help", "send"], "help tool send"),
    ])
    func helpAndVersionWinOverMissingArguments(_ arguments: [String], _ expected: String) throws {
        #expect(Self.describe(try TestProgram.parser.parse(arguments)) == expected)
    }
}
