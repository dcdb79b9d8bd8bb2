import Foundation
import Testing

/// The manual stays in step with the program: the man page names every command and option `--help`
/// shows (and no other), and the links between README.md and doc/ lead to pages and headings that exist.
@Suite("manual")
struct ManualTests {
    /// Tests/EndToEndTests/ManualTests.swift → the package root.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the man page names every command and option of --help, and no option the program lacks")
    func manPageMatchesHelp() async throws {
        let manPage = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("doc/espressomartini.1"), encoding: .utf8
        )
        .replacingOccurrences(of: "\\-", with: "-")
        let root = try await Self.help([])
        let commands = Self.subcommands(inHelp: root)
        #expect(commands.contains("run") && commands.contains("endpoints"), "no subcommands found in:\n\(root)")
        var helpOptions = Self.options(in: root)
        for command in commands {
            #expect(manPage.contains(".B espressomartini \(command)"), "the man page's synopsis lacks '\(command)'")
            helpOptions.formUnion(Self.options(in: try await Self.help([command])))
        }
        let manOptions = Self.options(in: manPage)
        #expect(
            helpOptions.subtracting(manOptions).isEmpty,
            "options of --help missing from the man page: \(helpOptions.subtracting(manOptions).sorted())")
        #expect(
            manOptions.subtracting(helpOptions).isEmpty,
            "options in the man page that --help lacks: \(manOptions.subtracting(helpOptions).sorted())")
    }

    @Test("every relative link of README.md and doc/*.md leads to a file, and its #anchor to a heading")
    func linksLeadSomewhere() throws {
        let documents =
            ["README.md"]
            + (try FileManager.default.contentsOfDirectory(atPath: Self.packageRoot.appendingPathComponent("doc").path))
            .filter { $0.hasSuffix(".md") }.map { "doc/" + $0 }
        var checked = 0
        for document in documents {
            let url = Self.packageRoot.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let link = String(match.output.1)
                guard !link.contains("://") else { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target =
                    parts[0].isEmpty
                    ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                let relative = String(target.path.dropFirst(Self.packageRoot.standardizedFileURL.path.count + 1))
                #expect(FileManager.default.fileExists(atPath: target.path), "\(document): \(link) leads nowhere")
                if parts.count == 2, let page = try? String(contentsOf: target, encoding: .utf8) {
                    #expect(
                        Self.anchors(in: page).contains(parts[1]),
                        "\(document): no heading for #\(parts[1]) in \(relative)")
                }
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    // MARK: - Helpers

    static func help(_ command: [String]) async throws -> String {
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(command + ["--help"], in: tree.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        return outcome.standardOutput
    }

    /// The names listed under SUBCOMMANDS: on the root help page, up to the blank line that ends the list.
    static func subcommands(inHelp help: String) -> [String] {
        guard let section = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        let lines = help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false).prefix {
            !$0.isEmpty
        }
        return lines.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init).flatMap { $0.allSatisfy(\.isLetter) ? $0 : nil }
        }
    }

    /// Every long option (`--name`) a text mentions.
    static func options(in text: String) -> Set<String> {
        Set(text.matches(of: /--[a-z][a-z-]*/).map { String($0.output) })
    }

    /// GitHub's anchors for a Markdown page's headings: lower case, punctuation dropped, spaces as '-'.
    static func anchors(in page: String) -> Set<String> {
        var inFence = false
        var anchors: Set<String> = []
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle() }
            guard !inFence, line.hasPrefix("#") else { continue }
            let title = line.drop(while: { $0 == "#" }).dropFirst()
            anchors.insert(
                String(
                    title.lowercased().compactMap { character -> Character? in
                        if character == " " { return "-" }
                        return character.isLetter || character.isNumber || character == "-" || character == "_"
                            ? character : nil
                    }))
        }
        return anchors
    }
}
