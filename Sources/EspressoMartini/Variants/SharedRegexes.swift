/// The compiled regexes some tree holds, by pattern: each pattern is compiled once while any tree holds it.
/// An imported tree holds thousands of `Prefer` variants made of a dozen patterns, and a compiled regex costs
/// about 16 KiB and 0.15 ms; a reload that keeps a pattern reuses its regex. Held weakly: a pattern no tree
/// uses any more goes with its last tree, and its entry with the next pruning.
struct SharedRegexes {
    private static let table = Locked(SharedRegexes())

    private struct Entry {
        weak var regex: CompiledRegex?
    }

    private var entries: [String: Entry] = [:]
    /// Dead entries are dropped when the table reaches this size, which then doubles what is left.
    private var pruneAt = 64

    /// The compiled `pattern`; throws its compile error. Any thread; a compile runs outside the lock.
    static func regex(_ pattern: String) throws -> CompiledRegex {
        if let known = table.withLock({ $0.entries[pattern]?.regex }) { return known }
        let compiled = try CompiledRegex(pattern)
        return table.withLock { $0.keep(compiled) }
    }

    /// `compiled`, or the regex another thread kept for its pattern meanwhile.
    private mutating func keep(_ compiled: CompiledRegex) -> CompiledRegex {
        if let known = entries[compiled.pattern]?.regex { return known }
        entries[compiled.pattern] = Entry(regex: compiled)
        if entries.count >= pruneAt {
            entries = entries.filter { $0.value.regex != nil }
            pruneAt = max(64, entries.count * 2)
        }
        return compiled
    }
}
