extension JSONValue {
    /// Compact JSON text (no spaces), as sent for inline bodies and by the admin API. It reads back as the
    /// same value: a double is written as Swift writes it (with an exponent from 2^53 on, which JSON readers
    /// read back as a double; jansson refuses an integer beyond 64 bits).
    public var compactText: String {
        var output: [UInt8] = []
        write(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// JSON text for people to read and edit: two spaces per level, one member or element per line, members
    /// in their order, a newline at the end. Written trees (`configuration.json`) use it.
    public var indentedText: String {
        String(decoding: indentedBytes, as: UTF8.self)
    }

    /// `indentedText`'s UTF-8 bytes, for a file.
    public var indentedBytes: [UInt8] {
        indented(wholeNumbersInFull: false)
    }

    /// `compactText`, but with whole numbers written in full, without an exponent (`1e+20` as
    /// `100000000000000000000`): for what is sent as it is written (a body file, a header value), since many
    /// readers (typed decoders, integer checks) take a number with an exponent for a fraction.
    public var compactAnswerText: String {
        var output: [UInt8] = []
        write(to: &output, indentation: nil, wholeNumbersInFull: true)
        return String(decoding: output, as: UTF8.self)
    }

    /// `indentedBytes` with whole numbers in full, as `compactAnswerText`: for a body file.
    public var indentedAnswerBytes: [UInt8] {
        indented(wholeNumbersInFull: true)
    }

    /// Appends the compact JSON text's UTF-8 bytes to `output`.
    public func write(to output: inout [UInt8]) {
        write(to: &output, indentation: nil, wholeNumbersInFull: false)
    }

    private func indented(wholeNumbersInFull: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(512)
        write(to: &output, indentation: 0, wholeNumbersInFull: wholeNumbersInFull)
        output.append(UInt8(ascii: "\n"))
        return output
    }

    /// `indentation`: the current level when indenting, nil for compact text. Bytes are appended in runs,
    /// never one generic element at a time.
    private func write(to output: inout [UInt8], indentation: Int?, wholeNumbersInFull: Bool) {
        switch self {
        case .null: Self.append("null", to: &output)
        case .bool(let value): Self.append(value ? "true" : "false", to: &output)
        case .integer(let value): Self.appendDecimal(value, to: &output)
        case .real(let value):
            if !value.isFinite {
                Self.append("null", to: &output)
            } else if wholeNumbersInFull {
                Self.appendInFull(value, to: &output)
            } else {
                output.append(contentsOf: String(value).utf8)
            }
        case .string(let value): JSONStringEscaping.appendQuoted(value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            let inner = indentation.map { $0 + 1 }
            for index in elements.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newLine(&output, inner)
                elements[index].write(to: &output, indentation: inner, wholeNumbersInFull: wholeNumbersInFull)
            }
            if !elements.isEmpty { Self.newLine(&output, indentation) }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let inner = indentation.map { $0 + 1 }
            for index in members.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newLine(&output, inner)
                JSONStringEscaping.appendQuoted(members[index].key, to: &output)
                output.append(UInt8(ascii: ":"))
                if indentation != nil { output.append(UInt8(ascii: " ")) }
                members[index].value.write(to: &output, indentation: inner, wholeNumbersInFull: wholeNumbersInFull)
            }
            if !members.isEmpty { Self.newLine(&output, indentation) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func appendDecimal(_ value: Int64, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        DecimalDigits.with(value.magnitude) { output.append(contentsOf: $0) }
    }

    /// Swift's shortest text of `value`, except that a whole number is written without an exponent
    /// (`1e+20` as `100000000000000000000`, `1.2345678901234567e+19` as `12345678901234567000`). Swift writes an
    /// exponent only from 2^53 on, so `5.0` stays `5.0`.
    private static func appendInFull(_ value: Double, to output: inout [UInt8]) {
        let text = String(value)
        guard value.rounded(.towardZero) == value, let e = text.utf8.firstIndex(of: UInt8(ascii: "e")),
            let exponent = Int(text[text.index(after: e)...])
        else {
            output.append(contentsOf: text.utf8)
            return
        }
        let mantissa = text.utf8[..<e]
        var digits = mantissa.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ".") }
        let before =
            mantissa.firstIndex(of: UInt8(ascii: ".")).map { mantissa.distance(from: mantissa.startIndex, to: $0) }
            ?? mantissa.count
        let integerDigits = before - (value < 0 ? 1 : 0) + exponent
        // A whole number's shortest digits never reach past its units; were they to, the text stays as it is.
        guard integerDigits >= digits.count else {
            output.append(contentsOf: text.utf8)
            return
        }
        digits.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: integerDigits - digits.count))
        if value < 0 { output.append(UInt8(ascii: "-")) }
        output.append(contentsOf: digits)
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    private static func newLine(_ output: inout [UInt8], _ indentation: Int?) {
        guard let indentation else { return }
        output.append(UInt8(ascii: "\n"))
        var count = 2 * indentation
        while count > 0 {
            let run = min(count, spaces.count)
            spaces.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<run])) }
            count -= run
        }
    }
}
