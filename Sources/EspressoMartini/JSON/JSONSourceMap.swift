/// Where values and keys start in a JSON document, by path (`["0", "status_code"]`; the root is `[]`).
public protocol JSONPositions {
    func value(_ path: [String]) -> SourcePosition
    func key(_ path: [String]) -> SourcePosition
    /// Where `target`, a line and column in the decoded text of the string at `path`, is in the file.
    /// Default: the string's start (positions known without the file's bytes).
    func position(_ target: SourcePosition, inStringAt path: [String]) -> SourcePosition
}

extension JSONPositions {
    public func position(_ target: SourcePosition, inStringAt path: [String]) -> SourcePosition { value(path) }
}

/// Line and column of every value and key in a JSON document that is already known to be valid,
/// so that a problem found after parsing (a wrong type, a status out of range) points into the file.
/// Paths are member keys and array indices (`["0", "status_code"]`); the root is `[]`.
public struct JSONSourceMap: JSONPositions, Sendable {
    private var valuePositions: [[String]: SourcePosition] = [:]
    private var keyPositions: [[String]: SourcePosition] = [:]

    public init(_ bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        scanner.scanValue(at: [], into: &self)
    }

    /// Where the value at `path` starts (1:1 when unknown).
    public func value(_ path: [String]) -> SourcePosition {
        valuePositions[path] ?? SourcePosition(line: 1, column: 1)
    }

    /// Where the key of the member at `path` starts (the value's position when unknown).
    public func key(_ path: [String]) -> SourcePosition {
        keyPositions[path] ?? value(path)
    }

    /// A forgiving scanner: it never traps, it just stops recording on input it does not expect.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var column = 1

        init(bytes: [UInt8]) { self.bytes = bytes }

        var position: SourcePosition { SourcePosition(line: line, column: column) }
        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func advance() {
            guard let byte = current else { return }
            index += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1  // count characters, not UTF-8 continuation bytes
            }
        }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance() }
        }

        mutating func scanValue(at path: [String], into map: inout JSONSourceMap) {
            skipWhitespace()
            map.valuePositions[path] = position
            switch current {
            case UInt8(ascii: "{"): scanObject(at: path, into: &map)
            case UInt8(ascii: "["): scanArray(at: path, into: &map)
            case UInt8(ascii: "\""): _ = scanString()
            case .some: scanScalar()
            case .none: return
            }
        }

        mutating func scanObject(at path: [String], into map: inout JSONSourceMap) {
            advance()  // {
            while true {
                skipWhitespace()
                guard let byte = current else { return }
                if byte == UInt8(ascii: "}") { advance(); return }
                if byte == UInt8(ascii: ",") { advance(); continue }
                guard byte == UInt8(ascii: "\"") else { return }
                let keyPosition = position
                let key = scanString()
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { return }
                advance()
                map.keyPositions[path + [key]] = keyPosition
                scanValue(at: path + [key], into: &map)
            }
        }

        mutating func scanArray(at path: [String], into map: inout JSONSourceMap) {
            advance()  // [
            var element = 0
            while true {
                skipWhitespace()
                guard let byte = current else { return }
                if byte == UInt8(ascii: "]") { advance(); return }
                if byte == UInt8(ascii: ",") { advance(); continue }
                let before = index
                scanValue(at: path + [String(element)], into: &map)
                element += 1
                if index == before { return }  // no progress: not JSON we understand
            }
        }

        /// Reads a string token and returns its decoded text.
        mutating func scanString() -> String {
            advance()  // opening quote
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            while let byte = current {
                advance()
                if byte == UInt8(ascii: "\"") { break }
                guard byte == UInt8(ascii: "\\") else { raw.append(byte); continue }
                guard let escaped = current else { break }
                advance()
                switch escaped {
                case UInt8(ascii: "n"): raw.append(0x0A)
                case UInt8(ascii: "t"): raw.append(0x09)
                case UInt8(ascii: "r"): raw.append(0x0D)
                case UInt8(ascii: "b"): raw.append(0x08)
                case UInt8(ascii: "f"): raw.append(0x0C)
                case UInt8(ascii: "u"):
                    flush()
                    var code = scanHex4()
                    if (0xD800..<0xDC00).contains(code), current == UInt8(ascii: "\\") {
                        advance(); advance()  // \u of the low surrogate
                        let low = scanHex4()
                        // Only a low surrogate pairs up; anything else (not JSON) becomes U+FFFD rather than overflowing.
                        code =
                            (0xDC00..<0xE000).contains(low)
                            ? 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00) : 0xFFFD
                    }
                    scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
                default: raw.append(escaped)  // \" \\ \/
                }
            }
            flush()
            return String(scalars)
        }

        mutating func scanHex4() -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = current, let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { break }
                value = value * 16 + digit
                advance()
            }
            return value
        }

        mutating func scanScalar() {
            while let byte = current {
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
                    || byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
                {
                    return
                }
                advance()
            }
        }
    }
}
