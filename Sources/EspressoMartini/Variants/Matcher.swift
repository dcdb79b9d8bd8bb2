/// A test on the values a request has under one name (`?page=2`, a header, a JSON member), compiled
/// once at load from a condition in `configuration.json` (doc/variants.md "Matchers").
public struct Matcher: Sendable {
    public enum Rule: Sendable {
        /// The whole value equals the text.
        case equals(String)
        /// In `json` conditions: the value equals this JSON value, as JSON (`1` equals `1.0`).
        case equalsJSON(JSONValue)
        case contains(String)
        case prefix(String)
        /// The whole value matches.
        case regex(CompiledRegex)
        /// `true`: the name has a value; `false`: it has none.
        case present(Bool)
    }

    /// Where the matcher looks: text values (query, headers, cookies, path, body, form, GraphQL), or
    /// a value in the body's JSON, where `equals` takes any JSON value and the rest hold only on strings.
    public enum Context: Sendable {
        case text
        case json
    }

    public let rule: Rule

    public init(_ rule: Rule) {
        self.rule = rule
    }

    /// Whether any of `values` satisfies the matcher; for `{"present": false}`, whether there is none.
    public func holds(for values: [String]) -> Bool {
        if case .present(let wanted) = rule { return wanted != values.isEmpty }
        return values.contains { holds(forText: $0) }
    }

    /// Whether the value at a JSON Pointer (nil when there is none) satisfies the matcher.
    public func holds(for value: JSONValue?) -> Bool {
        guard let value else {
            if case .present(false) = rule { return true }
            return false
        }
        switch rule {
        case .equalsJSON(let expected): return value.isEquivalent(to: expected)
        case .present(let wanted): return wanted
        default:
            guard case .string(let text) = value else { return false }
            return holds(forText: text)
        }
    }

    private func holds(forText text: String) -> Bool {
        switch rule {
        case .equals(let expected): text == expected
        case .equalsJSON(let expected): expected.isEquivalent(to: .string(text))
        case .contains(let part): part.isEmpty || text.contains(part)
        case .prefix(let start): text.hasPrefix(start)
        case .regex(let regex): regex.matchesWhole(text)
        case .present: true
        }
    }
}
