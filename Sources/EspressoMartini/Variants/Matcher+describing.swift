extension Matcher {
    /// What the request had and what was expected, when the matcher does not hold for `values`
    /// (`query "page" is "3", expected "2"`, `header "authorization" is missing`); nil when it holds.
    /// `subject` names what was looked at (`query "page"`).
    public func mismatch(for values: [String], subject: String) -> String? {
        guard !holds(for: values) else { return nil }
        return describe(subject, had: Self.describe(values), missing: values.isEmpty, json: false)
    }

    /// The same for the value at a JSON Pointer (nil when there is none):
    /// `json "/user/name" is 42, expected a string matching (?i)ada.*`.
    public func mismatch(for value: JSONValue?, subject: String) -> String? {
        guard !holds(for: value) else { return nil }
        return describe(
            subject, had: value.map { "is " + Self.shortened($0.compactText) } ?? "", missing: value == nil, json: true)
    }

    private func describe(_ subject: String, had: String, missing: Bool, json: Bool) -> String {
        if missing {
            if case .present = rule { return "\(subject) is missing" }
            return "\(subject) is missing, expected \(expectation(json: json))"
        }
        return "\(subject) \(had), expected \(expectation(json: json))"
    }

    /// `"2"`, `a value containing "x"`, `it to be absent`.
    private func expectation(json: Bool) -> String {
        let aValue = json ? "a string" : "a value"
        switch rule {
        case .equals(let text): return Self.quoted(text)
        case .equalsJSON(let value): return Self.shortened(value.compactText)
        case .contains(let part): return "\(aValue) containing \(Self.quoted(part))"
        case .prefix(let start): return "\(aValue) starting with \(Self.quoted(start))"
        case .regex(let regex): return "\(aValue) matching \(regex.pattern)"
        case .present(true): return "it to be present"
        case .present(false): return "it to be absent"
        }
    }

    /// The short form in listings, after the name: `=2`, ` contains x`, ` present`.
    public var summary: String {
        switch rule {
        case .equals(let text): "=" + text
        case .equalsJSON(.string(let text)): "=" + text
        case .equalsJSON(let value): "=" + value.compactText
        case .contains(let part): " contains " + part
        case .prefix(let start): " starts with " + start
        case .regex(let regex): " matches " + regex.pattern
        case .present(let wanted): wanted ? " present" : " absent"
        }
    }

    /// `is "3"`, `has "a" and "b"`, `has "a", "b", "c", "d", "e" and 2 more`.
    private static func describe(_ values: [String]) -> String {
        guard values.count > 1 else { return "is " + (values.first.map(quoted) ?? "missing") }
        let shown = values.prefix(5).map(quoted)
        if values.count > 5 { return "has " + shown.joined(separator: ", ") + " and \(values.count - 5) more" }
        return "has " + shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
    }

    /// The text as a JSON string, its first 80 characters only.
    static func quoted(_ text: String) -> String {
        let limit = 80
        let output = JSONValue.string(String(text.prefix(limit))).compactText
        return text.dropFirst(limit).isEmpty ? output : output + "…"
    }

    private static func shortened(_ text: String) -> String {
        let limit = 120
        return text.dropFirst(limit).isEmpty ? text : text.prefix(limit) + "…"
    }
}
