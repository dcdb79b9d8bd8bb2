/// An RFC 6901 JSON Pointer (`/items/0/id`; `""` is the whole document), parsed once at load.
public struct JSONPointer: Sendable, Equatable, CustomStringConvertible {
    /// Why a text is no JSON Pointer, as a sentence for a load error.
    public struct SyntaxError: Error, Sendable, Equatable {
        public let message: String
    }

    /// The pointer as written, for messages.
    public let text: String
    /// The reference tokens, unescaped (`~1` → `/`, `~0` → `~`).
    public let tokens: [String]

    /// Parses `text`: `""`, or `/` followed by tokens separated by `/`, where `~` only starts `~0` or `~1`.
    public init(parsing text: String) throws(SyntaxError) {
        self.text = text
        guard !text.isEmpty else {
            tokens = []
            return
        }
        guard text.utf8.first == UInt8(ascii: "/") else {
            throw SyntaxError(
                message:
                    "'\(text)' is not a JSON Pointer: it must be \"\" (the whole document) or start with '/', as in '/\(text)'"
            )
        }
        var tokens: [String] = []
        for raw in text.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            var token: [UInt8] = []
            token.reserveCapacity(raw.count)
            var escaping = false
            for byte in raw {
                if escaping {
                    switch byte {
                    case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                    case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                    default: throw SyntaxError(message: Self.badEscapeMessage(text))
                    }
                    escaping = false
                } else if byte == UInt8(ascii: "~") {
                    escaping = true
                } else {
                    token.append(byte)
                }
            }
            guard !escaping else { throw SyntaxError(message: Self.badEscapeMessage(text)) }
            tokens.append(String(decoding: token, as: UTF8.self))
        }
        self.tokens = tokens
    }

    private static func badEscapeMessage(_ text: String) -> String {
        "'\(text)' is not a JSON Pointer: '~' must be followed by 0 (for '~') or 1 (for '/')"
    }

    public var description: String { text }

    /// The value the pointer refers to in `document`, or nil when there is none. An object member is
    /// found by its key (the first of that key); an array element only by a canonical decimal index
    /// (`0`, `12`; not `01`, `+1` or `-`).
    public func value(in document: JSONValue) -> JSONValue? {
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                current = member.value
            case .array(let elements):
                guard let index = Self.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// `0` or a digit 1–9 followed by digits, within `Int`.
    static func arrayIndex(_ token: String) -> Int? {
        let digits = token.utf8
        guard let first = digits.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            first != UInt8(ascii: "0") || digits.count == 1,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int(token)
    }
}
