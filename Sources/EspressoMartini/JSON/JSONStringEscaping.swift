/// The one way text becomes JSON string content here (compact JSON, templates in JSON bodies, the
/// request handed to scripts): `"` and `\` get a backslash, line feed, carriage return and tab become `\n`,
/// `\r` and `\t`, backspace and form feed `\b` and `\f`, other control characters `\u00XX`; every other byte is copied as is, in runs.
public enum JSONStringEscaping {
    /// Appends `bytes` (UTF-8) escaped, without quotes.
    public static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
            case UInt8(ascii: "\n"): output.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): output.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): output.append(UInt8(ascii: "t"))
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            default:
                output.append(contentsOf: "u00".utf8)
                output.append(UInt8(ascii: "0") + (byte >> 4))  // 0 or 1: control characters are below 0x20
                let low = byte & 0xF
                output.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Appends `text` escaped, without quotes.
    public static func appendEscaped(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendEscaped($0, to: &output) }
    }

    /// Appends `text` as a JSON string, quotes included.
    public static func appendQuoted(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        appendEscaped(text, to: &output)
        output.append(UInt8(ascii: "\""))
    }
}
