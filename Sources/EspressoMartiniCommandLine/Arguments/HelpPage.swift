/// A command's `--help` text, laid out as swift-argument-parser laid it out (what users and scripts have seen):
///
///     OVERVIEW: Serve the requests folder over HTTP until SIGINT or SIGTERM.
///
///     USAGE: espressomartini run [--configuration <file>] …
///
///     OPTIONS:
///       --configuration <file>  The server configuration file (default:
///                               configuration.json in the current folder, …
public struct HelpPage: Sendable {
    /// Where descriptions start: labels that reach it put their description on the next line.
    static let descriptionColumn = 26
    static let labelIndent = "  "

    public let command: CommandDefinition
    /// The columns the text fits in.
    public var width: Int

    public init(command: CommandDefinition, width: Int = TerminalWidth.current) {
        self.command = command
        self.width = width
    }

    public var text: String {
        var overview = "OVERVIEW: \(command.abstract)"
        if !command.discussion.isEmpty { overview += "\n\n\(command.discussion)" }
        var sections = [section("OPTIONS", command.visibleOptions.map { ($0.helpLabel, $0.help) })]
        if !command.positionals.isEmpty {
            sections.insert(section("ARGUMENTS", command.positionals.map { ("<\($0.name)>", $0.help) }), at: 0)
        }
        if !command.subcommands.isEmpty {
            sections.append(section("SUBCOMMANDS", command.subcommands.map { ($0.name, $0.abstract) }))
        }
        var page = wrapped(overview) + "\n\n" + "USAGE: \(command.usage)\n\n" + sections.joined(separator: "\n")
        if !command.subcommands.isEmpty {
            page +=
                "\n  See '\(command.invocation) \(CommandDefinition.helpCommandName) <subcommand>' for detailed help."
        }
        return page
    }

    /// `OPTIONS:` and one entry per label, each ending with a newline.
    private func section(_ title: String, _ entries: [(label: String, description: String)]) -> String {
        "\(title):\n"
            + entries.map { entry in
                let label = Self.labelIndent + entry.label
                let description = wrapped(entry.description, indent: Self.descriptionColumn)
                if label.count < Self.descriptionColumn {
                    return label + description.dropFirst(label.count) + "\n"
                }
                return label + "\n" + description + "\n"
            }.joined()
    }

    /// `text` in lines shorter than the width, each indented by `indent` spaces: breaks at the last space that
    /// fits, or after a word longer than a line; keeps the text's own line breaks.
    private func wrapped(_ text: String, indent: Int = 0) -> String {
        let columns = max(width - indent, 10)
        var lines: [Substring] = []
        var rest = text[...]
        while true {
            let chunk = rest.prefix(columns)
            if let lastBreak = chunk.lastIndex(of: "\n") {
                lines += rest[..<lastBreak].split(separator: "\n", omittingEmptySubsequences: false)
                rest = rest[rest.index(after: lastBreak)...]
            } else if chunk.endIndex == rest.endIndex {
                lines.append(rest)
                break
            } else if let breakAt = chunk.lastIndex(of: " ") ?? rest.firstIndex(of: " ") {
                lines.append(rest[..<breakAt])
                rest = rest[rest.index(after: breakAt)...]
            } else {
                lines.append(rest)
                break
            }
        }
        let padding = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? "" : padding + $0 }.joined(separator: "\n")
    }
}
