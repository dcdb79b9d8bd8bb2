/// Standard base64 (RFC 4648 §4, with padding): `body_base64` in a configuration, and what listings and
/// `import openapi` write.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of each alphabet byte, -1 for any other byte.
    private static let values: [Int8] = {
        var values = [Int8](repeating: -1, count: 256)
        for (value, byte) in alphabet.enumerated() { values[Int(byte)] = Int8(value) }
        return values
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var start = 0
        while start < bytes.count {
            let count = min(3, bytes.count - start)
            var value = 0
            for offset in 0..<count { value |= Int(bytes[start + offset]) << (16 - 8 * offset) }
            for index in 0..<4 {
                text.append(index <= count ? alphabet[(value >> (18 - 6 * index)) & 0x3F] : UInt8(ascii: "="))
            }
            start += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Why a text is not base64.
    public struct Problem: Error, Sendable, Equatable {
        /// Where the first character that cannot be read is in the text (lines and characters from 1).
        public let position: SourcePosition
        public let message: String
    }

    /// The bytes `text` encodes. Line breaks and spaces are skipped (as in a wrapped MIME body); padding
    /// may be left out.
    public static func decode(_ text: String) -> Result<[UInt8], Problem> {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 4 * 3)
        var accumulated = 0, bits = 0, padding = 0, digits = 0
        var line = 1, column = 0
        var position: SourcePosition { SourcePosition(line: line, column: column) }
        for byte in text.utf8 {
            if byte & 0xC0 != 0x80 { column += 1 }
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                column = 0
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "="):
                padding += 1
                guard padding <= 2, (digits + padding) % 4 != 1 else {
                    return .failure(Problem(position: position, message: "'=' where no padding can be"))
                }
                continue
            default:
                let value = values[Int(byte)]
                guard value >= 0 else {
                    let shown = byte < 0x80 ? "'\(Character(Unicode.Scalar(byte)))'" : "a non-ASCII byte"
                    return .failure(Problem(position: position, message: "\(shown) is not a base64 digit"))
                }
                guard padding == 0 else {
                    return .failure(Problem(position: position, message: "a digit after the '=' padding"))
                }
                digits += 1
                accumulated = (accumulated << 6) | Int(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    bytes.append(UInt8((accumulated >> bits) & 0xFF))
                }
            }
        }
        guard digits % 4 != 1 else {
            return .failure(
                Problem(
                    position: SourcePosition(line: line, column: column + 1),
                    message: "the text ends one digit into a byte"))
        }
        return .success(bytes)
    }
}
