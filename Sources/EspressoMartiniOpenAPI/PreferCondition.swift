import EspressoMartini

/// The `when` of a variant chosen by the request header `Prefer` (RFC 7240), as other mock servers read it:
/// `Prefer: code=404`, `Prefer: example=cat`, `Prefer: code=404, example=cat`. A regular expression finds the
/// preference among any others in the value (`return=minimal, code=404`), its value bare or quoted.
enum PreferCondition {
    static let header = "Prefer"

    /// `{"headers": {"Prefer": {"regex": "…"}}}` for the status `code`, the example `example`, or both.
    static func when(code: Int?, example: String?) -> JSONValue {
        .object([
            JSONMember(
                key: "headers",
                value: .object([
                    JSONMember(
                        key: header,
                        value: .object([JSONMember(key: "regex", value: .string(pattern(code: code, example: example)))]
                        ))
                ]))
        ])
    }

    static func pattern(code: Int?, example: String?) -> String {
        switch (code, example) {
        case (let code?, let example?):
            "(?=" + preference("code", String(code)) + "$)" + preference("example", escaped(example))
        case (let code?, nil): preference("code", String(code))
        case (nil, let example?): preference("example", escaped(example))
        case (nil, nil): ".*"
        }
    }

    /// The whole value holds `NAME=VALUE` as one of its comma-separated preferences.
    private static func preference(_ name: String, _ value: String) -> String {
        #"(.*,)?\s*"# + name + #"\s*=\s*"?"# + value + #""?\s*([,;].*)?"#
    }

    /// `text` matched literally: the characters regular expressions give a meaning escaped.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
