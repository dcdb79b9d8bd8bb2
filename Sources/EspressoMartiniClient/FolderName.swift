/// How a literal path segment is spelled as a folder name so that it matches only itself (doc/tree.md, "A
/// literal `*`, `{id}` or `GET` in a path"): the server's own rules, mirrored.
enum FolderName {
    static let methodNames = Set(NetworkExchange.Method.allCases.map(\.rawValue))
    /// The folder reserved for the admin API at the root of a tree.
    static let reserved = "__espressomartini"

    /// Why no request can have `text` as a segment; nil when one can.
    static func problem(withSegment text: String) -> String? {
        if text.isEmpty { return "an empty segment (a path's empty segments are ignored)" }
        if text == "." || text == ".." { return "the segment '\(text)' (it is answered 400)" }
        if text.contains("/") { return "a segment holding '/' (\(JSONValue.string(text).jsonText())); split it" }
        if text.unicodeScalars.contains("\u{0}") { return "a segment holding a NUL character" }
        return nil
    }

    /// `text` as it is when it reads as plain text; else with the character that would make it a pattern
    /// (`*`, `**`, `{id}`, `:id`), a method folder (`GET`, any case), a hidden folder (`.x`) or the admin
    /// API's folder (at the root) escaped; `%` and control characters always escaped.
    static func escaped(segment text: String, atRoot: Bool) -> String {
        var name = ""
        for scalar in text.unicodeScalars {
            if scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F {
                name += escape(UInt8(scalar.value))
            } else {
                name.unicodeScalars.append(scalar)
            }
        }
        guard let first = name.first else { return name }
        switch first {
        case "*" where name == "*" || name == "**":
            return String(repeating: escape(UInt8(ascii: "*")), count: name.count)
        case "{" where NetworkExchange.PathComponent(reading: name).parameterName != nil:
            return escape(UInt8(ascii: "{")) + name.dropFirst().dropLast() + escape(UInt8(ascii: "}"))
        case ":" where NetworkExchange.PathComponent(reading: name).parameterName != nil:
            return escape(UInt8(ascii: ":")) + name.dropFirst()
        case ".":
            return escape(UInt8(ascii: ".")) + name.dropFirst()
        default:
            if methodNames.contains(name.uppercased()) || (atRoot && name == reserved) {
                return escape(first.asciiValue!) + name.dropFirst()
            }
            return name
        }
    }

    /// `name` with its percent-escapes decoded, as the server reads a folder name; nil when it has none, or
    /// one that is not two hexadecimal digits, or decodes to bytes that are not UTF-8.
    static func percentDecoded(_ name: String) -> String? {
        guard name.contains("%") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = name.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            let digits = String(decoding: utf8.prefix(2), as: UTF8.self)
            guard digits.count == 2, digits.allSatisfy(\.isHexDigit), let value = UInt8(digits, radix: 16) else {
                return nil
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func escape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
