extension JSONValue {
    /// Compact JSON text (no spaces), as sent for inline bodies and by the admin API.
    public var compactText: String {
        var output = ""
        write(to: &output, indentation: nil)
        return output
    }

    /// JSON text for people to read and edit: two spaces per level, one member or element per line, members
    /// in their order, a newline at the end. Written trees (`configuration.json`, imported bodies) use it.
    public var indentedText: String {
        var output = ""
        write(to: &output, indentation: 0)
        output += "\n"
        return output
    }

    /// `indentation`: the current level when indenting, nil for compact text.
    private func write(to output: inout String, indentation: Int?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .real(let value): output += value.isFinite ? String(value) : "null"
        case .string(let value): JSONValue.writeQuoted(value, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                Self.newLine(&output, indentation.map { $0 + 1 })
                element.write(to: &output, indentation: indentation.map { $0 + 1 })
            }
            if !elements.isEmpty { Self.newLine(&output, indentation) }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.newLine(&output, indentation.map { $0 + 1 })
                JSONValue.writeQuoted(member.key, to: &output)
                output += indentation == nil ? ":" : ": "
                member.value.write(to: &output, indentation: indentation.map { $0 + 1 })
            }
            if !members.isEmpty { Self.newLine(&output, indentation) }
            output += "}"
        }
    }

    private static func newLine(_ output: inout String, _ indentation: Int?) {
        guard let indentation else { return }
        output += "\n"
        output += String(repeating: "  ", count: indentation)
    }

    static func writeQuoted(_ string: String, to output: inout String) {
        output += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
