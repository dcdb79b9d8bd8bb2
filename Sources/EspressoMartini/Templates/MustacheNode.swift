/// One step of a compiled template. Nodes sit in one flat array; a section's body is the nodes after
/// it, up to (not including) `end`. Names are indexes into `MustacheTemplate.names`, so a node holds
/// no reference and reading one costs no reference counting.
enum MustacheNode: Sendable, Equatable {
    /// Bytes of the template's own text, a range of `MustacheTemplate.text`.
    case text(Range<Int>)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{& name}}` (never escaped).
    case variable(name: Int, escaped: Bool)
    /// `{{#name}}` or, inverted, `{{^name}}`.
    case section(name: Int, inverted: Bool, end: Int)
}
