/// Finds the value at a JSON Pointer in a JSON text without building the document: the whole text is
/// checked as one JSON value (RFC 8259, nesting at most `depthLimit` deep, strings valid UTF-8 with no NUL
/// escaped or raw control character), and only the place of the value found is kept. A request body's
/// `json` conditions read it this way: no allocation per node, where building the whole document would
/// cost one or more per value.
struct JSONScanner {
    static let depthLimit = 2048

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Keys with escapes are compared once decoded, by the parser.
    private let parser: any JSONParser
    private(set) var found: Range<Int>?

    private init(_ bytes: UnsafeBufferPointer<UInt8>, parser: any JSONParser) {
        self.bytes = bytes
        self.parser = parser
    }

    /// Where the value at `tokens` lies in `bytes` (nil inside when nothing is there); nil when `bytes` is
    /// not one JSON value. With duplicate keys, the first one counts.
    static func locate(_ tokens: [String], in bytes: UnsafeBufferPointer<UInt8>, parser: any JSONParser) -> Range<Int>?? {
        var scanner = JSONScanner(bytes, parser: parser)
        scanner.skipWhitespace()
        guard scanner.value(path: tokens[...], depth: 0) else { return nil }
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { return nil }
        return .some(scanner.found)
    }

    /// Scans one value; `path` is what remains of the pointer below it (nil: not on the pointer's way).
    private mutating func value(path: ArraySlice<String>?, depth: Int) -> Bool {
        guard depth < Self.depthLimit, index < bytes.count else { return false }
        let start = index
        let ok: Bool
        switch bytes[index] {
        case UInt8(ascii: "{"): ok = object(path: path, depth: depth)
        case UInt8(ascii: "["): ok = array(path: path, depth: depth)
        case UInt8(ascii: "\""): ok = string() != nil
        case UInt8(ascii: "t"): ok = literal("true")
        case UInt8(ascii: "f"): ok = literal("false")
        case UInt8(ascii: "n"): ok = literal("null")
        default: ok = number()
        }
        if ok, path?.isEmpty == true { found = start..<index }
        return ok
    }

    private mutating func object(path: ArraySlice<String>?, depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return true }
        var matched = false
        while true {
            guard peek(UInt8(ascii: "\"")), let key = string() else { return false }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { return false }
            index += 1
            skipWhitespace()
            var below: ArraySlice<String>?
            if let path, let token = path.first, !matched, keyEquals(key, token) {
                below = path.dropFirst()
                matched = true
            }
            guard value(path: below, depth: depth + 1) else { return false }
            skipWhitespace()
            if peek(UInt8(ascii: "}")) { index += 1; return true }
            guard peek(UInt8(ascii: ",")) else { return false }
            index += 1
            skipWhitespace()
        }
    }

    private mutating func array(path: ArraySlice<String>?, depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return true }
        let wanted = path?.first.flatMap(JSONPointer.arrayIndex)
        var position = 0
        while true {
            guard value(path: position == wanted ? path?.dropFirst() : nil, depth: depth + 1) else { return false }
            position += 1
            skipWhitespace()
            if peek(UInt8(ascii: "]")) { index += 1; return true }
            guard peek(UInt8(ascii: ",")) else { return false }
            index += 1
            skipWhitespace()
        }
    }

    /// Scans a string from its opening quote; returns its bytes between the quotes and whether it has
    /// escapes, nil when it is not a valid JSON string.
    private mutating func string() -> (content: Range<Int>, escaped: Bool)? {
        index += 1
        let start = index
        var escaped = false
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                defer { index += 1 }
                return (start..<index, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                guard escape() else { return nil }
            case 0..<0x20:
                return nil
            case 0x80...:
                guard utf8Sequence() else { return nil }
            default:
                index += 1
            }
        }
        return nil
    }

    /// One escape from its backslash: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`, or `\uXXXX` (a surrogate
    /// only in a high-low pair, never `\u0000`).
    private mutating func escape() -> Bool {
        index += 1
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
             UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"): break
        default: return false
        }
        guard let unit = hex4(), unit != 0 else { return false }
        switch unit {
        case 0xD800...0xDBFF:
            guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { return false }
            index += 2
            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
            return true
        case 0xDC00...0xDFFF: return false
        default: return true
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt32(digit)
            index += 1
        }
        return unit
    }

    /// A multi-byte UTF-8 sequence: no overlong form, no surrogate, nothing above U+10FFFF.
    private mutating func utf8Sequence() -> Bool {
        let first = bytes[index]
        let count: Int, minimum: UInt32
        var scalar: UInt32
        switch first {
        case 0xC2...0xDF: (count, minimum, scalar) = (2, 0x80, UInt32(first & 0x1F))
        case 0xE0...0xEF: (count, minimum, scalar) = (3, 0x800, UInt32(first & 0x0F))
        case 0xF0...0xF4: (count, minimum, scalar) = (4, 0x10000, UInt32(first & 0x07))
        default: return false
        }
        guard index + count <= bytes.count else { return false }
        for offset in 1..<count {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return false }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else { return false }
        index += count
        return true
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() -> Bool {
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
        } else {
            guard digits() else { return false }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            guard digits() else { return false }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits() else { return false }
        }
        return true
    }

    /// One or more decimal digits.
    private mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index > start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count, (0..<length).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] }) else { return false }
        index += length
        return true
    }

    private func keyEquals(_ key: (content: Range<Int>, escaped: Bool), _ token: String) -> Bool {
        guard key.escaped else { return bytes[key.content].elementsEqual(token.utf8) }
        let quoted = Array(bytes[(key.content.lowerBound - 1)..<(key.content.upperBound + 1)])
        guard case .success(.string(let decoded)) = parser.parse(quoted) else { return false }
        return decoded == token
    }

    private func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }
}
