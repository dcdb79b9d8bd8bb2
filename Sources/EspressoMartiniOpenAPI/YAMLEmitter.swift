import EspressoMartini

/// YAML text for a JSON value, for imported `application/yaml` bodies: block style, two spaces per level,
/// members in their order, `[]` and `{}` for empty collections, numbers as in JSON. A string is written plain
/// only where no YAML reader could take it for anything else (it starts with a letter, holds only printable
/// ASCII, is no word YAML 1.1 or 1.2 reads as null or a boolean, and holds no `: ` or ` #`); any other is
/// double-quoted with escapes. libyaml reads the text back as the same value.
enum YAMLEmitter {
    static func text(_ value: JSONValue) -> String {
        var output = ""
        write(value, indentation: 0, inline: false, to: &output)
        return output
    }

    /// Writes `value` at `indentation`; `inline`: its first line goes on the current one (after `- `).
    private static func write(_ value: JSONValue, indentation: Int, inline: Bool, to output: inout String) {
        let margin = String(repeating: " ", count: indentation)
        switch value {
        case .object(let members) where !members.isEmpty:
            for (index, member) in members.enumerated() {
                if index > 0 || !inline { output += margin }
                let key = scalar(.string(member.key))
                // An implicit key is at most 1024 characters long; a longer one is written as an explicit `? KEY`.
                output += key.utf8.count > 1000 ? "? " + key + "\n" + margin + ":" : key + ":"
                after(member.value, indentation: indentation, to: &output)
            }
        case .array(let elements) where !elements.isEmpty:
            for (index, element) in elements.enumerated() {
                if index > 0 || !inline { output += margin }
                output += "-"
                if isCollection(element) {
                    output += " "
                    write(element, indentation: indentation + 2, inline: true, to: &output)
                } else {
                    output += " " + scalar(element) + "\n"
                }
            }
        default:
            if !inline { output += margin }
            output += scalar(value) + "\n"
        }
    }

    /// A member's value after its `key:`: a collection on the lines below, indented; anything else on this line.
    private static func after(_ value: JSONValue, indentation: Int, to output: inout String) {
        if isCollection(value) {
            output += "\n"
            write(value, indentation: indentation + 2, inline: false, to: &output)
        } else {
            output += " " + scalar(value) + "\n"
        }
    }

    /// A non-empty object or array (an empty one is written `{}` or `[]` like a scalar).
    private static func isCollection(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members): !members.isEmpty
        case .array(let elements): !elements.isEmpty
        default: false
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): isPlain(text) ? text : quoted(text)
        case .array: "[]"
        case .object: "{}"
        case .real: number(value.compactAnswerText)
        // null, booleans and integers as JSON writes them, which YAML reads alike.
        default: value.compactText
        }
    }

    /// A number as JSON writes it (whole numbers without an exponent), with `.0` before an exponent that
    /// follows a bare integer (`1.0e-07`), which YAML 1.1 needs to read it as a number and 1.2 allows.
    private static func number(_ text: String) -> String {
        guard let e = text.firstIndex(of: "e"), !text[..<e].contains(".") else { return text }
        return text[..<e] + ".0" + text[e...]
    }

    /// Words YAML 1.1 (yes, on, y, …) or 1.2 reads as null or a boolean, in any case.
    private static let reserved: Set<String> = ["null", "true", "false", "yes", "no", "on", "off", "y", "n"]

    private static func isPlain(_ text: String) -> Bool {
        guard let first = text.utf8.first,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
            text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }),
            text.utf8.last != UInt8(ascii: " "), text.utf8.last != UInt8(ascii: ":"),
            !text.contains(": "), !text.contains(" #"),
            !reserved.contains(text.lowercased())
        else { return false }
        return true
    }

    /// A double-quoted scalar: `"` and `\` escaped, and every character YAML does not allow as it is or that
    /// a reader could take for a line break (controls, DEL, C1, U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF).
    private static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: output += "\\\""
            case 0x5C: output += "\\\\"
            case 0x0A: output += "\\n"
            case 0x09: output += "\\t"
            case 0x0D: output += "\\r"
            case 0x00..<0x20, 0x7F...0x9F: output += "\\x" + hex(scalar.value, digits: 2)
            case 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: output += "\\u" + hex(scalar.value, digits: 4)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
