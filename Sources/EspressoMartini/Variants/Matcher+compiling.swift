extension Matcher {
    static let keys = ["equals", "contains", "prefix", "regex", "present"]

    /// Compiles the matcher `value` found at `path` of `file`: a string (`equals`), or an object with
    /// exactly one of `equals`, `contains`, `prefix`, `regex`, `present`. Regular expressions are
    /// compiled here, once. Reports every problem with its position; nil when there is one.
    public static func compile(
        _ value: JSONValue, at path: [String], in context: Context, file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> Matcher? {
        let members: [JSONMember]
        switch value {
        case .string(let text):
            return Matcher(context == .json ? .equalsJSON(value) : .equals(text))
        case .object(let objectMembers):
            members = objectMembers
        default:
            var message = "a matcher is a string or an object with one of \(Self.keyList), found \(value.kindName)"
            if context == .json {
                message += "; to compare with \(value.compactText), write {\"equals\": \(value.compactText)}"
            } else if value.isScalar {
                message += "; write \(Self.quoted(value.compactText)) to compare as text"
            }
            diagnostics.error(file, map.value(path), message)
            return nil
        }
        guard !members.isEmpty else {
            diagnostics.error(file, map.value(path), "a matcher needs one of \(Self.keyList), found an empty object")
            return nil
        }
        var rule: Rule?
        var firstKey: String?
        var failed = false
        for member in members {
            let memberPath = path + [member.key]
            guard Self.keys.contains(member.key) else {
                var message = "unknown matcher key '\(member.key)'; a matcher has one of \(Self.keyList)"
                if let suggestion = Suggestion.closest(to: member.key, among: Self.keys) {
                    message += "; did you mean '\(suggestion)'?"
                }
                diagnostics.error(file, map.key(memberPath), message)
                failed = true
                continue
            }
            if let firstKey {
                diagnostics.error(
                    file, map.key(memberPath),
                    "'\(firstKey)' and '\(member.key)' cannot both be given in one matcher; keep one of them")
                failed = true
                continue
            }
            firstKey = member.key
            switch compileRule(member.key, member.value, in: context) {
            case .success(let compiled): rule = compiled
            case .failure(let problem):
                diagnostics.error(file, map.value(memberPath), problem.message)
                failed = true
            }
        }
        guard !failed, let rule else { return nil }
        return Matcher(rule)
    }

    private struct Problem: Error {
        let message: String
    }

    private static func compileRule(_ key: String, _ value: JSONValue, in context: Context) -> Result<Rule, Problem> {
        if key == "present" {
            guard case .bool(let wanted) = value else {
                return .failure(Problem(message: "'present' must be true or false, found \(value.kindName)"))
            }
            return .success(.present(wanted))
        }
        if key == "equals", context == .json { return .success(.equalsJSON(value)) }
        guard case .string(let text) = value else {
            var message = "'\(key)' must be a string, found \(value.kindName)"
            if key == "equals", value.isScalar {
                message += "; the request's values are text here, write \(Self.quoted(value.compactText))"
            }
            return .failure(Problem(message: message))
        }
        switch key {
        case "equals": return .success(.equals(text))
        case "contains": return .success(.contains(text))
        case "prefix": return .success(.prefix(text))
        default:
            do {
                return .success(.regex(try SharedRegexes.regex(text)))
            } catch {
                return .failure(Problem(message: "'regex' \(Self.quoted(text)) does not compile: \(error)"))
            }
        }
    }

    private static var keyList: String {
        keys.map { "'\($0)'" }.joined(separator: ", ")
    }
}

extension JSONValue {
    /// A number, boolean or null: values a user may have meant as text.
    fileprivate var isScalar: Bool {
        switch self {
        case .integer, .real, .bool, .null: true
        default: false
        }
    }
}
