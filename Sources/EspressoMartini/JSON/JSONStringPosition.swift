/// Where a place in a JSON string's decoded text lies in its file: escapes (`\n`, `\"`, `\u00e9`) take
/// more room in the file than in the text, and a `\n` starts a new line of the text only.
enum JSONStringPosition {
    /// `target` is a line and column in the decoded text of the string whose opening quote is at
    /// `quote` in `bytes` (valid JSON; columns count characters, as `JSONSourceMap` does).
    static func locate(_ target: SourcePosition, inStringAt quote: SourcePosition, in bytes: [UInt8]) -> SourcePosition
    {
        var index = 0, line = 1, column = 1
        while index < bytes.count, line < quote.line || (line == quote.line && column < quote.column) {
            if bytes[index] == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        index += 1  // the opening quote
        column += 1
        var textLine = 1, textColumn = 1
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""),
            textLine < target.line || (textLine == target.line && textColumn < target.column)
        {
            let byte = bytes[index]
            var length = 1
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let escaped = bytes[index + 1]
                length = escaped == UInt8(ascii: "u") ? (isSurrogatePair(at: index, in: bytes) ? 12 : 6) : 2
                column += length  // an escape is ASCII: one column per byte
                if escaped == UInt8(ascii: "n") {
                    textLine += 1
                    textColumn = 1
                } else {
                    textColumn += 1
                }
            } else {
                while index + length < bytes.count, bytes[index + length] & 0xC0 == 0x80 { length += 1 }
                column += 1
                textColumn += 1
            }
            index += length
        }
        return SourcePosition(line: line, column: column)
    }

    /// Whether the `\u` escape at `index` is a high surrogate followed by a `\u` escape.
    private static func isSurrogatePair(at index: Int, in bytes: [UInt8]) -> Bool {
        guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u")
        else { return false }
        let first = bytes[index + 2] | 0x20
        return first == UInt8(ascii: "d")
            && [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(
                bytes[index + 3] | 0x20)
    }
}
