extension JSONValue {
    /// Compact JSON text (no spaces), as sent for inline bodies and by the admin API.
    public var compactText: String {
        var output: [UInt8] = []
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// JSON text for people to read and edit: two spaces per level, one member or element per line, members
    /// in their order, a newline at the end. Written trees (`configuration.json`, imported bodies) use it.
    public var indentedText: String {
        String(decoding: indentedBytes, as: UTF8.self)
    }

    /// `indentedText`'s UTF-8 bytes, for a file.
    public var indentedBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        write(to: &output, indentation: 0)
        output.append(UInt8(ascii: "\n"))
        return output
    }

    /// Appends the compact JSON text's UTF-8 bytes to `output`.
    public func write(to output: inout [UInt8]) {
        write(to: &output, indentation: nil)
    }

    /// `indentation`: the current level when indenting, nil for compact text.
    private func write(to output: inout [UInt8], indentation: Int?) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .integer(let value): output.append(contentsOf: String(value).utf8)
        case .real(let value): output.append(contentsOf: (value.isFinite ? String(value) : "null").utf8)
        case .string(let value): JSONStringEscaping.appendQuoted(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newLine(&output, indentation.map { $0 + 1 })
                element.write(to: &output, indentation: indentation.map { $0 + 1 })
            }
            if !elements.isEmpty { Self.newLine(&output, indentation) }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newLine(&output, indentation.map { $0 + 1 })
                JSONStringEscaping.appendQuoted(member.key, to: &output)
                output.append(contentsOf: (indentation == nil ? ":" : ": ").utf8)
                member.value.write(to: &output, indentation: indentation.map { $0 + 1 })
            }
            if !members.isEmpty { Self.newLine(&output, indentation) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newLine(_ output: inout [UInt8], _ indentation: Int?) {
        guard let indentation else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indentation))
    }
}
