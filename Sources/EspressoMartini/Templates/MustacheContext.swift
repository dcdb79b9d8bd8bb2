/// The bottom of a template's context stack: what a name means when no section's value has it.
/// The renderer asks only for the names a render actually reaches, so a context can compute its
/// values lazily (parse a body, make a UUID) and should keep what it computed if it is costly: the
/// same name may be asked for more than once in one render, and by several templates of one answer.
public protocol MustacheContext {
    /// The value a dotted name stands for, `path` being the name split at its dots (never empty),
    /// or nil when there is none. `JSONValue.descendant(at:)` walks the rest of a path once its
    /// first segment is resolved.
    func value(at path: [String]) -> JSONValue?

    /// The whole root, for `{{.}}` outside any section.
    func rootValue() -> JSONValue
}
