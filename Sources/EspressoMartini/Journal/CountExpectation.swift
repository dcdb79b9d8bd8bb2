/// How many requests `requests/verify` expects (doc/admin-api.md): `{"exactly": N}`, `{"at_least": N}` or
/// `{"at_most": N}`; at least one when the body gives none.
public enum CountExpectation: Sendable, Equatable {
    case exactly(Int)
    case atLeast(Int)
    case atMost(Int)

    static let keys = ["exactly", "at_least", "at_most"]

    public func holds(for count: Int) -> Bool {
        switch self {
        case .exactly(let wanted): count == wanted
        case .atLeast(let least): count >= least
        case .atMost(let most): count <= most
        }
    }

    /// `exactly 1`, `at least 2`, `at most 0`.
    public var description: String {
        switch self {
        case .exactly(let wanted): "exactly \(wanted)"
        case .atLeast(let least): "at least \(least)"
        case .atMost(let most): "at most \(most)"
        }
    }

    /// Reads `value`, the body's `count`, reporting a problem at `at` in `file`.
    static func read(
        _ value: JSONValue, file: String, map: LazyJSONSourceMap, into diagnostics: inout Diagnostics
    ) -> CountExpectation? {
        let example = #"{"exactly": 1}, {"at_least": 1} or {"at_most": 3}"#
        guard case .object(let members) = value, members.count == 1, let member = members.first else {
            diagnostics.error(
                file, map.value(["count"]), "'count' must be one of \(example), found \(value.compactText)")
            return nil
        }
        let at = map.value(["count", member.key])
        guard case .integer(let number) = member.value, number >= 0, number <= Int64(Int32.max) else {
            diagnostics.error(
                file, at,
                "'\(member.key)' must be a whole number of requests, 0 or more; found \(member.value.compactText)")
            return nil
        }
        switch member.key {
        case "exactly": return .exactly(Int(number))
        case "at_least": return .atLeast(Int(number))
        case "at_most": return .atMost(Int(number))
        default:
            var message = "unknown key '\(member.key)' in 'count'; it takes one of \(VariantConditions.list(keys))"
            if let suggestion = Suggestion.closest(to: member.key, among: keys) {
                message += "; did you mean '\(suggestion)'?"
            }
            diagnostics.error(file, map.key(["count", member.key]), message)
            return nil
        }
    }
}
