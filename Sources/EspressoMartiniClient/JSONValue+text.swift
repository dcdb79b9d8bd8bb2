extension JSONValue {
    /// The value as JSON text: keys sorted, so that the same value always reads the same; `pretty` puts
    /// each member on a line of its own, two spaces a level. A number that is not finite is written `null`.
    public func jsonText(pretty: Bool = false) -> String {
        var text = ""
        write(into: &text, pretty: pretty, indentation: "")
        return text
    }

    private func write(into text: inout String, pretty: Bool, indentation: String) {
        switch self {
        case .string(let string): Self.writeString(string, into: &text)
        case .integer(let integer): text += String(integer)
        case .number(let number): text += number.isFinite ? Self.numberText(number) : "null"
        case .bool(let bool): text += bool ? "true" : "false"
        case .null: text += "null"
        case .array(let elements):
            guard !elements.isEmpty else { return text += "[]" }
            let inner = indentation + "  "
            text += "["
            for (index, element) in elements.enumerated() {
                text += index == 0 ? "" : ","
                if pretty { text += "\n" + inner }
                element.write(into: &text, pretty: pretty, indentation: inner)
            }
            text += pretty ? "\n" + indentation + "]" : "]"
        case .object(let members):
            guard !members.isEmpty else { return text += "{}" }
            let inner = indentation + "  "
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                text += index == 0 ? "" : ","
                if pretty { text += "\n" + inner }
                Self.writeString(key, into: &text)
                text += pretty ? ": " : ":"
                members[key]!.write(into: &text, pretty: pretty, indentation: inner)
            }
            text += pretty ? "\n" + indentation + "}" : "}"
        }
    }

    /// `2.0` as `2.0`, `0.1` as `0.1`, `1e-07` as `1e-07`: Swift's shortest form, which JSON reads back exactly.
    private static func numberText(_ number: Double) -> String {
        number.description
    }

    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
