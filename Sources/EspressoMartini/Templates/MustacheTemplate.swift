/// A Mustache template compiled once (when the tree loads) and rendered for every request:
/// text, `{{name}}`, `{{{name}}}`, `{{& name}}`, dotted names and `{{.}}`, sections `{{#name}}…{{/name}}`,
/// inverted sections `{{^name}}…{{/name}}`, comments `{{! … }}` and delimiter changes `{{=<% %>=}}`,
/// with the specification's standalone-line rule. Partials and template inheritance are refused.
public struct MustacheTemplate: Sendable, Equatable {
    /// The nodes, flat: a section's body follows it.
    let nodes: [MustacheNode]
    /// The names of the variables and sections, in the order they appear.
    let names: [MustacheName]
    /// Every text node's bytes, one after another.
    let text: [UInt8]

    init(nodes: [MustacheNode], names: [MustacheName], text: [UInt8]) {
        self.nodes = nodes
        self.names = names
        self.text = text
    }

    /// Parses `text`. Positions in errors count from `origin`, the place of the template's first
    /// character in its file: on the first line columns are shifted by `origin.column - 1`, lines
    /// below are shifted by `origin.line - 1`.
    public init(
        parsing text: String, origin: SourcePosition = SourcePosition(line: 1, column: 1)
    ) throws(MustacheSyntaxError) {
        try self.init(parsing: Array(text.utf8), origin: origin)
    }

    /// Parses template bytes; text between tags is kept byte for byte, even if it is not UTF-8.
    public init(
        parsing bytes: [UInt8], origin: SourcePosition = SourcePosition(line: 1, column: 1)
    ) throws(MustacheSyntaxError) {
        var parser = MustacheParser(bytes: bytes, origin: origin)
        self = try parser.parse()
    }

    /// True when the template has no variable and no section: it renders its text, always the same.
    public var isPlainText: Bool {
        nodes.allSatisfy { if case .text = $0 { true } else { false } }
    }
}

extension MustacheTemplate {
    /// The template of no text at all.
    public static let empty = MustacheTemplate(nodes: [], names: [], text: [])
}
