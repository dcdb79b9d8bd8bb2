extension Condition {
    /// How a value of the request is compared (doc/variants.md, Matchers). A string literal means `.equals`
    /// that string: `.query("page", "2")`.
    public enum Matcher: Sendable, Hashable, ExpressibleByStringLiteral {
        /// The value is exactly this. Outside `Condition.json` the value must be a string (the request's
        /// query, headers, cookies, path and form are text); in `json`, any JSON value, compared as JSON.
        case equals(JSONValue)
        /// The value is a string containing this.
        case contains(String)
        /// The value is a string starting with this.
        case prefix(String)
        /// The value is a string the regular expression matches as a whole (Perl-style syntax: `\d+`,
        /// `(?i)` for any case).
        case regex(String)
        /// `true`: the value exists; `false`: it does not (in `json`, a member that is `null` exists).
        case present(Bool)

        public init(stringLiteral value: String) {
            self = .equals(.string(value))
        }

        /// The matcher as the `when` object writes it: a plain string for `.equals` a string, otherwise an
        /// object with its one key.
        var json: JSONValue {
            switch self {
            case .equals(.string(let text)): .string(text)
            case .equals(let value): ["equals": value]
            case .contains(let text): ["contains": .string(text)]
            case .prefix(let text): ["prefix": .string(text)]
            case .regex(let pattern): ["regex": .string(pattern)]
            case .present(let present): ["present": .bool(present)]
            }
        }
    }
}

extension Condition.Matcher: CustomStringConvertible {
    /// As a sentence's end: `equals "2"`, `contains "x"`, `is present`.
    public var description: String {
        switch self {
        case .equals(let value): "equals \(value.jsonText())"
        case .contains(let text): "contains \(JSONValue.string(text).jsonText())"
        case .prefix(let text): "starts with \(JSONValue.string(text).jsonText())"
        case .regex(let pattern): "matches the regular expression \(JSONValue.string(pattern).jsonText())"
        case .present(let present): present ? "is present" : "is absent"
        }
    }
}
