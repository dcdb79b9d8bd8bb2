/// One step of a compiled template. Nodes sit in one flat array; a section's body is the nodes after
/// it, up to (not including) `end`.
enum MustacheNode: Sendable {
    /// Bytes of the template's own text, a range of `MustacheTemplate.text`.
    case text(Range<Int>)
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{& name}}` (never escaped).
    case variable(MustacheName, escaped: Bool)
    /// `{{#name}}` or, inverted, `{{^name}}`.
    case section(MustacheName, inverted: Bool, end: Int)
}
