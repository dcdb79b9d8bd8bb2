extension ByteMatcher {
    /// Compiles the bytes matcher `value` that `key` gives at `path` of `file`: a base64 string (`equals`), or
    /// an object with exactly one of `equals`, `contains`, `prefix` (base64 strings) or `present`, read as a
    /// text matcher is (`Matcher.compile`), then decoded. Reports every problem with its position; nil when
    /// there is one.
    static func compile(
        _ value: JSONValue, key: String, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> ByteMatcher? {
        if case .object(let members) = value, members.contains(where: { $0.key == "regex" }) {
            diagnostics.error(
                file, map.key(path + ["regex"]),
                "'\(key)' matches bytes, not text: it takes 'equals', 'contains', 'prefix' or 'present'; match the body's text with 'body': {\"regex\": …}"
            )
            return nil
        }
        guard let matcher = Matcher.compile(value, at: path, in: .text, file: file, map: map, into: &diagnostics)
        else { return nil }
        // Where the base64 text is: the string itself, or the matcher's one member.
        var textPath = path
        if case .object(let members) = value, let member = members.first { textPath.append(member.key) }
        let text: String
        let rule: ([UInt8]) -> Rule
        switch matcher.rule {
        case .equals(let given): (text, rule) = (given, Rule.equals)
        case .contains(let given): (text, rule) = (given, Rule.contains)
        case .prefix(let given): (text, rule) = (given, Rule.prefix)
        case .present(let wanted): return ByteMatcher(.present(wanted))
        case .equalsJSON, .regex: return nil  // neither in a text matcher without 'regex'
        }
        let bytes = Base64.decode(.string(text), key: key, at: textPath, file: file, map: map, into: &diagnostics)
        return bytes.map { ByteMatcher(rule($0)) }
    }
}
