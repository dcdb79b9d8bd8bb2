/// Reads the operation definitions of a GraphQL executable document (specification, October 2021:
/// "Language" and "Appendix B"). Token by token, with no recursion: brackets are matched with a
/// stack of the closers expected. Every byte access goes through `byte(at:)`, which answers nil
/// past the end.
struct GraphQLDocumentReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A lexical token. Names keep their place in `bytes`; numbers and strings are only checked.
    enum Token: Equatable {
        case punctuator(UInt8)  // `...` is reported as `.`
        case name(Range<Int>)
        case number
        case string
        case end
    }

    /// The operations in order, or nil when the document is not an executable GraphQL document.
    mutating func readOperations() -> [GraphQLOperation]? {
        var operations: [GraphQLOperation] = []
        while true {
            guard let token = nextToken() else { return nil }
            switch token {
            case .end:
                return operations
            case .punctuator(UInt8(ascii: "{")):
                guard skipGroup(openedBy: UInt8(ascii: "{")) else { return nil }
                operations.append(GraphQLOperation(type: .query, name: nil))
            case .name(let range):
                let keyword = text(range)
                if let type = GraphQLOperation.OperationType(rawValue: keyword) {
                    var name: String?
                    guard readOperationRest(name: &name) else { return nil }
                    operations.append(GraphQLOperation(type: type, name: name))
                } else if keyword == "fragment" {
                    guard readFragmentRest() else { return nil }
                } else {
                    return nil
                }
            default:
                return nil
            }
        }
    }

    /// After the operation type: `Name? VariableDefinitions? Directives? SelectionSet`; sets `name`
    /// when there is one. False when malformed.
    private mutating func readOperationRest(name: inout String?) -> Bool {
        guard var token = nextToken() else { return false }
        if case .name(let range) = token {
            name = text(range)
            guard let next = nextToken() else { return false }
            token = next
        }
        if token == .punctuator(UInt8(ascii: "(")) {
            guard skipGroup(openedBy: UInt8(ascii: "(")), let next = nextToken() else { return false }
            token = next
        }
        return skipDirectives(from: token) == .punctuator(UInt8(ascii: "{")) && skipGroup(openedBy: UInt8(ascii: "{"))
    }

    /// After `fragment`: `FragmentName on TypeCondition Directives? SelectionSet`.
    private mutating func readFragmentRest() -> Bool {
        guard case .name(let fragmentName)? = nextToken(), text(fragmentName) != "on",
            case .name(let on)? = nextToken(), text(on) == "on",
            case .name? = nextToken(),
            let token = nextToken()
        else { return false }
        return skipDirectives(from: token) == .punctuator(UInt8(ascii: "{")) && skipGroup(openedBy: UInt8(ascii: "{"))
    }

    /// Skips `@Name Arguments?` repeatedly, starting at `token`; the first token after them, or nil
    /// when malformed.
    private mutating func skipDirectives(from token: Token) -> Token? {
        var token = token
        while token == .punctuator(UInt8(ascii: "@")) {
            guard case .name? = nextToken(), var next = nextToken() else { return nil }
            if next == .punctuator(UInt8(ascii: "(")) {
                guard skipGroup(openedBy: UInt8(ascii: "(")), let afterArguments = nextToken() else { return nil }
                next = afterArguments
            }
            token = next
        }
        return token
    }

    /// Skips to the bracket that closes `opening` (`{`, `(` or `[`, just read), checking that every
    /// token is valid and brackets pair up. False at the end of the document or on a bad token.
    private mutating func skipGroup(openedBy opening: UInt8) -> Bool {
        guard let closer = Self.closer(of: opening) else { return false }
        var expected: [UInt8] = [closer]
        while let token = nextToken() {
            guard case .punctuator(let mark) = token else {
                if token == .end { return false }
                continue
            }
            if let closer = Self.closer(of: mark) {
                expected.append(closer)
            } else if mark == UInt8(ascii: "}") || mark == UInt8(ascii: ")") || mark == UInt8(ascii: "]") {
                guard expected.last == mark else { return false }
                expected.removeLast()
                if expected.isEmpty { return true }
            }
        }
        return false
    }

    private static func closer(of opening: UInt8) -> UInt8? {
        switch opening {
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        case UInt8(ascii: "("): UInt8(ascii: ")")
        case UInt8(ascii: "["): UInt8(ascii: "]")
        default: nil
        }
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    private func byte(at position: Int) -> UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    // MARK: Lexical grammar

    /// The next token after ignored tokens; nil on text that is no token.
    mutating func nextToken() -> Token? {
        skipIgnored()
        guard let first = byte(at: index) else { return .end }
        switch first {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            index += 1
            return .punctuator(first)
        case UInt8(ascii: "."):
            guard byte(at: index + 1) == UInt8(ascii: "."), byte(at: index + 2) == UInt8(ascii: ".") else { return nil }
            index += 3
            return .punctuator(first)
        case UInt8(ascii: "\""):
            return readString() ? .string : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return readNumber() ? .number : nil
        case _ where Self.isNameStart(first):
            let start = index
            index += 1
            while let next = byte(at: index), Self.isNameStart(next) || Self.isDigit(next) { index += 1 }
            return .name(start..<index)
        default:
            return nil
        }
    }

    /// Whitespace, line terminators, commas, comments and byte order marks (U+FEFF).
    private mutating func skipIgnored() {
        while let current = byte(at: index) {
            switch current {
            case 0x09, 0x20, 0x0A, 0x0D, UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "#"):
                while let next = byte(at: index), next != 0x0A, next != 0x0D { index += 1 }
            case 0xEF where byte(at: index + 1) == 0xBB && byte(at: index + 2) == 0xBF:
                index += 3
            default:
                return
            }
        }
    }

    /// `IntValue` or `FloatValue`, not followed by a digit, `.` or a name start.
    private mutating func readNumber() -> Bool {
        if byte(at: index) == UInt8(ascii: "-") { index += 1 }
        guard let first = byte(at: index), Self.isDigit(first) else { return false }
        index += 1
        if first != UInt8(ascii: "0") { _ = skipDigits() }
        if byte(at: index) == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() else { return false }
        }
        if let indicator = byte(at: index), indicator == UInt8(ascii: "e") || indicator == UInt8(ascii: "E") {
            index += 1
            if let sign = byte(at: index), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { return false }
        }
        guard let next = byte(at: index) else { return true }
        return !(Self.isDigit(next) || next == UInt8(ascii: ".") || Self.isNameStart(next))
    }

    /// Whether at least one digit was skipped.
    private mutating func skipDigits() -> Bool {
        let start = index
        while let next = byte(at: index), Self.isDigit(next) { index += 1 }
        return index > start
    }

    /// A `"…"` string with escapes, or a `"""…"""` block string (where `\"""` stands for `"""`).
    private mutating func readString() -> Bool {
        if byte(at: index + 1) == UInt8(ascii: "\""), byte(at: index + 2) == UInt8(ascii: "\"") {
            return readBlockString()
        }
        index += 1
        while let current = byte(at: index) {
            switch current {
            case UInt8(ascii: "\""):
                index += 1
                return true
            case 0x0A, 0x0D:
                return false
            case UInt8(ascii: "\\"):
                index += 1
                guard readEscape() else { return false }
            default:
                index += 1
            }
        }
        return false
    }

    /// After a backslash: `"` `\` `/` `b` `f` `n` `r` `t`, `uXXXX` or `u{X…}` (a Unicode scalar value).
    private mutating func readEscape() -> Bool {
        guard let escaped = byte(at: index) else { return false }
        index += 1
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u") where byte(at: index) == UInt8(ascii: "{"):
            index += 1
            var value: UInt32 = 0
            var digits = 0
            while let next = byte(at: index), let digit = Self.hexValue(next) {
                value = value * 16 + digit
                guard value <= 0x10FFFF else { return false }
                digits += 1
                index += 1
            }
            guard digits > 0, byte(at: index) == UInt8(ascii: "}"), Unicode.Scalar(value) != nil else { return false }
            index += 1
            return true
        case UInt8(ascii: "u"):
            for _ in 0..<4 {
                guard let next = byte(at: index), Self.hexValue(next) != nil else { return false }
                index += 1
            }
            return true
        default:
            return false
        }
    }

    private mutating func readBlockString() -> Bool {
        index += 3
        while let current = byte(at: index) {
            if current == UInt8(ascii: "\\"), byte(at: index + 1) == UInt8(ascii: "\""),
                byte(at: index + 2) == UInt8(ascii: "\""), byte(at: index + 3) == UInt8(ascii: "\"")
            {
                index += 4
            } else if current == UInt8(ascii: "\""), byte(at: index + 1) == UInt8(ascii: "\""),
                byte(at: index + 2) == UInt8(ascii: "\"")
            {
                index += 3
                return true
            } else {
                index += 1
            }
        }
        return false
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
