/// Finds the value at a JSON Pointer in a JSON text without building the document: the whole text is
/// checked as one JSON value (RFC 8259, nesting at most `depthLimit` deep, strings valid UTF-8 with no NUL
/// escaped or raw control character), and only the place of the value found is kept. A request body's
/// `json` conditions read it this way: no allocation per node, where building the whole document would
/// cost one or more per value.
struct JSONScanner {
    static let depthLimit = 2048

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// The pointer's reference tokens; a value is on the pointer's way at level `l` when the first `l`
    /// tokens led to it (`offPath` when they did not).
    private let tokens: [String]
    /// Keys with escapes are compared once decoded, by the parser.
    private let parser: any JSONParser
    private(set) var found: Range<Int>?

    private static let offPath = -1

    private init(_ bytes: UnsafeBufferPointer<UInt8>, tokens: [String], parser: any JSONParser) {
        self.bytes = bytes
        self.tokens = tokens
        self.parser = parser
    }

    /// Where the value at `tokens` lies in `bytes` (nil inside when nothing is there); nil when `bytes` is
    /// not one JSON value. With duplicate keys, the first one counts.
    static func locate(_ tokens: [String], in bytes: UnsafeBufferPointer<UInt8>, parser: any JSONParser) -> Range<Int>??
    {
        var scanner = JSONScanner(bytes, tokens: tokens, parser: parser)
        scanner.skipWhitespace()
        guard scanner.value(level: 0, depth: 0) else { return nil }
        scanner.skipWhitespace()
        guard scanner.index == bytes.count else { return nil }
        return .some(scanner.found)
    }

    /// The value `locate` found at `range` of `bytes`: a string without escapes and `true`, `false` and
    /// `null` read here (the scan has checked them), anything else by `parser`. Nil when it cannot be read.
    static func value(at range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>, parser: any JSONParser) -> JSONValue?
    {
        let found = UnsafeBufferPointer(rebasing: bytes[range])
        switch found.first {
        case UInt8(ascii: "\""):
            let content = found.dropFirst().dropLast()
            guard content.contains(UInt8(ascii: "\\")) else { return .string(String(decoding: content, as: UTF8.self)) }
        case UInt8(ascii: "t"): return .bool(true)
        case UInt8(ascii: "f"): return .bool(false)
        case UInt8(ascii: "n"): return .null
        default: break
        }
        guard case .success(let value) = parser.parse(Array(found)) else { return nil }
        return value
    }

    /// Scans one value, on the pointer's way at `level` (or `offPath`).
    private mutating func value(level: Int, depth: Int) -> Bool {
        guard depth < Self.depthLimit, index < bytes.count else { return false }
        let start = index
        let ok: Bool
        switch bytes[index] {
        case UInt8(ascii: "{"): ok = object(level: level, depth: depth)
        case UInt8(ascii: "["): ok = array(level: level, depth: depth)
        case UInt8(ascii: "\""): ok = string() != nil
        case UInt8(ascii: "t"): ok = literal("true")
        case UInt8(ascii: "f"): ok = literal("false")
        case UInt8(ascii: "n"): ok = literal("null")
        default: ok = number()
        }
        if ok, level == tokens.count { found = start..<index }
        return ok
    }

    private mutating func object(level: Int, depth: Int) -> Bool {
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
            var below = Self.offPath
            if !matched, level != Self.offPath, level < tokens.count, keyEquals(key, level) {
                below = level + 1
                matched = true
            }
            guard value(level: below, depth: depth + 1) else { return false }
            skipWhitespace()
            if peek(UInt8(ascii: "}")) { index += 1; return true }
            guard peek(UInt8(ascii: ",")) else { return false }
            index += 1
            skipWhitespace()
        }
    }

    private mutating func array(level: Int, depth: Int) -> Bool {
        index += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; return true }
        let wanted = level != Self.offPath && level < tokens.count ? JSONPointer.arrayIndex(tokens[level]) : nil
        var position = 0
        while true {
            guard value(level: position == wanted ? level + 1 : Self.offPath, depth: depth + 1) else { return false }
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
        while true {
            skipPlainStringBytes()
            while index < bytes.count, Self.isPlain(bytes[index]) { index += 1 }
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return (start..<(index - 1), escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                guard escape() else { return nil }
            case 0x80...:
                guard utf8Sequence() else { return nil }
            default:
                return nil  // a control character
            }
        }
    }

    /// Printable ASCII other than `"` and `\`: a string byte that needs no look.
    @inline(__always)
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte &- 0x20 < 0x60 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    /// Skips string bytes that need no look (printable ASCII other than `"` and `\`) eight at a time: most
    /// of a body is such bytes, and the journal's counts scan thousands of bodies.
    private mutating func skipPlainStringBytes() {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if Self.mayHaveSpecialByte(word) { return }
            index += 8
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether a byte of `word` may be a quote, a backslash, a control character or not ASCII (never false
    /// when one is; a byte-by-byte look settles it).
    @inline(__always)
    private static func mayHaveSpecialByte(_ word: UInt64) -> Bool {
        // A byte below n sets its high bit in (word - n·ones) & ~word (n ≤ 128); a zero byte is one below 1.
        func hasByteBelow(_ word: UInt64, _ n: UInt64) -> Bool { (word &- ones &* n) & ~word & highBits != 0 }
        return word & highBits != 0 || hasByteBelow(word, 0x20) || hasByteBelow(word ^ (ones &* 0x22), 1)
            || hasByteBelow(word ^ (ones &* 0x5C), 1)
    }

    /// One escape from its backslash: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`, or `\uXXXX` (a surrogate
    /// only in a high-low pair, never `\u0000`).
    private mutating func escape() -> Bool {
        index += 1
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"): break
        default: return false
        }
        guard let unit = hex4(), unit != 0 else { return false }
        switch unit {
        case 0xD800...0xDBFF:
            guard peek(UInt8(ascii: "\\")), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                return false
            }
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
        guard index + length <= bytes.count, (0..<length).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] }) else {
            return false
        }
        index += length
        return true
    }

    /// Whether `key` is the pointer's token at `level`.
    private func keyEquals(_ key: (content: Range<Int>, escaped: Bool), _ level: Int) -> Bool {
        let token = tokens[level]
        guard key.escaped else {
            var token = token
            return token.withUTF8 { token in
                guard token.count == key.content.count else { return false }
                for offset in 0..<token.count where token[offset] != bytes[key.content.lowerBound + offset] {
                    return false
                }
                return true
            }
        }
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
