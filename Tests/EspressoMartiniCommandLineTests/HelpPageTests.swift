@testable import EspressoMartiniCommandLine
import Testing

/// `HelpPage`: every visible option with its label and text, the subcommands of the root, the usage line,
/// and lines that fit the width.
@Suite struct HelpPageTests {
    /// The page's words with the line breaks and indentation of the wrapping taken out.
    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test(arguments: TestProgram.commands)
    func listsEveryVisibleOptionWithItsText(_ command: CommandDefinition) {
        let page = HelpPage(command: command, width: 80).text
        let words = Self.flattened(page)
        #expect(page.hasPrefix("OVERVIEW: \(command.abstract)"))
        #expect(page.contains("\nUSAGE: \(command.usage)\n"))
        #expect(command.discussion.isEmpty || words.contains(Self.flattened(command.discussion)))
        #expect(command.visibleOptions.count == command.ownOptions.filter { !$0.isHidden }.count + 2)
        for option in command.visibleOptions {
            #expect(page.contains("\n  \(option.helpLabel)"), "\(command.invocation) --help lacks \(option.helpLabel)")
            #expect(words.contains(Self.flattened(option.help)), "\(command.invocation) --help lacks '\(option.help)'")
        }
        for hidden in command.options where hidden.isHidden {
            #expect(!page.contains(hidden.longSpelling), "\(command.invocation) --help shows \(hidden.longSpelling)")
        }
    }

    @Test func theRootListsItsSubcommandsButNotHelp() {
        let page = HelpPage(command: TestProgram.root, width: 80).text
        #expect(page.contains("\nSUBCOMMANDS:\n"))
        #expect(page.contains("\n  serve                   Serve things until stopped.\n"))
        #expect(page.contains("\n  list                    List the things.\n"))
        #expect(!page.contains("  help "))
        #expect(page.hasSuffix("\n  See 'tool help <subcommand>' for detailed help."))
        #expect(!HelpPage(command: TestProgram.root.subcommands[0], width: 80).text.contains("SUBCOMMANDS:"))
    }

    /// Descriptions start at column 26, or on the next line after a longer label; no line but the usage is
    /// wider than the page, except where a description gets its minimum of 10 columns or a word is longer.
    @Test(arguments: [30, 50, 80, 200])
    func linesFitTheWidth(_ width: Int) {
        let page = HelpPage(command: TestProgram.serve, width: width).text
        for line in page.split(separator: "\n") where !line.hasPrefix("USAGE: ") {
            let longestWord = line.split(separator: " ").map(\.count).max() ?? 0
            #expect(line.count <= max(width, HelpPage.descriptionColumn + max(10, longestWord)), "\(width): '\(line)'")
        }
        let nameLine = page.split(separator: "\n").first { $0.hasPrefix("  --name <text>") }
        #expect(nameLine.map { String($0.dropFirst(HelpPage.descriptionColumn)).hasPrefix("The") } == true)
        #expect(page.contains("\n  --generate-completion-script") == false)
    }

    @Test func theTextAndItsOwnLineBreaksAreKept() {
        let command = CommandDefinition(name: "x", abstract: "One.\nTwo.", discussion: "Three.\n\nFour.", make: nil)
        let page = HelpPage(command: command, width: 80).text
        #expect(page.hasPrefix("OVERVIEW: One.\nTwo.\n\nThree.\n\nFour.\n\nUSAGE: x\n"))
    }

    @Test func listsThePositionalArgumentsRequiredOnesWithoutBrackets() {
        let page = HelpPage(command: TestProgram.root.subcommand(named: "send")!, width: 80).text
        #expect(
            page.contains("\nUSAGE: tool send [--header <header> ...] [--name <text>] <method> <target> [<note>]\n"))
        #expect(
            page.contains(
                "\nARGUMENTS:\n  <method>                The method.\n  <target>                Where to send it.\n  <note>                  A file of notes.\n\nOPTIONS:\n"
            ))
    }
}
