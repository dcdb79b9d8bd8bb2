/// `name=value&name=value`, as a query string or an `application/x-www-form-urlencoded` body carries it:
/// names and values percent-decoded, `+` read as a space, repeated names kept in order. Never fails:
/// a `%` not followed by two hex digits is kept as it is (`%zz`, a lone `%`), empty pairs (`&&`) are
/// skipped, a pair without `=` has the empty value, and bytes that are not UTF-8 are repaired (U+FFFD).
public struct URLEncodedForm: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// In the order they were given.
    public let fields: [Field]

    public init(fields: [Field]) {
        self.fields = fields
    }

    public init(parsing text: some StringProtocol) {
        var fields: [Field] = []
        for pair in text.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let name = Self.decode(pair[..<(equals ?? pair.endIndex)])
            let value = equals.map { Self.decode(pair[pair.index(after: $0)...]) } ?? ""
            fields.append(Field(name: name, value: value))
        }
        self.fields = fields
    }

    /// The values given for `name` in `text`, in order, as `URLEncodedForm(parsing: text).values(named: name)`
    /// says, without decoding the other fields: a variant asks a query for one or two names.
    public static func values(named name: String, in text: String) -> [String] {
        var values: [String] = []
        var wanted = name, text = text
        wanted.withUTF8 { wanted in
            text.withUTF8 { text in
                var start = 0
                while start < text.count {
                    var end = start
                    while end < text.count, text[end] != UInt8(ascii: "&") { end += 1 }
                    defer { start = end + 1 }
                    guard end > start else { continue }
                    let pair = UnsafeBufferPointer(rebasing: text[start..<end])
                    let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                    let rawName = UnsafeBufferPointer(rebasing: pair[..<equals])
                    let isPlain = !rawName.contains { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }
                    guard isPlain ? rawName.elementsEqual(wanted) : decode(rawName) == name else { continue }
                    values.append(equals == pair.endIndex ? "" : decode(pair[(equals + 1)...]))
                }
            }
        }
        return values
    }

    /// The values given for `name`, in order; empty when it was not given.
    public func values(named name: String) -> [String] {
        fields.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The first value given for `name`.
    public func first(named name: String) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// Percent-decodes `bytes`, with `+` as a space.
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), let high = bytes.index(index, offsetBy: 1, limitedBy: bytes.endIndex),
                high != bytes.endIndex,
                let low = bytes.index(high, offsetBy: 1, limitedBy: bytes.endIndex), low != bytes.endIndex,
                let h = hexValue(bytes[high]), let l = hexValue(bytes[low])
            {
                decoded.append(h << 4 | l)
                index = low
            } else {
                decoded.append(byte)
            }
            index = bytes.index(after: index)
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The value of a hex digit, nil for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
