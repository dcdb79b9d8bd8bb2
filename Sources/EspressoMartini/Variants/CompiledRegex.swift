/// A regular expression (Swift's `Regex`, Perl-style syntax: `\d`, `[a-z]+`, `(?i)`), compiled once
/// at load and then matched from any thread.
///
/// A class, not a struct: `Regex` is resilient (its size unknown to this module), so as a struct it would make
/// `Matcher.Rule` and `VariantCondition` enums of unknown layout, copied through generic value witnesses
/// on every request.
///
/// `@unchecked Sendable`: `Regex` is a value whose only shared state is its lowered program, which
/// the standard library stores once with an atomic compare-and-swap (`Regex.Program.loweredProgram`),
/// and `init` lowers it before the value is shared.
public final class CompiledRegex: @unchecked Sendable {
    /// As written in the configuration, for messages.
    public let pattern: String
    private let regex: Regex<AnyRegexOutput>

    /// Throws the regular expression's own error (its text says what is wrong and where).
    public init(_ pattern: String) throws {
        self.pattern = pattern
        regex = try Regex(pattern)
        _ = try? regex.wholeMatch(in: "")  // lowers the program now, not on the first request
    }

    /// Whether the whole of `text` matches.
    public func matchesWhole(_ text: String) -> Bool {
        (try? regex.wholeMatch(in: text)) != nil
    }
}
