/// Percent-escapes in path-component folder names, both ways: the loader decodes a name holding `%HH` into
/// the one segment it matches literally (`%2A` matches only `*`, `%47ET` is the segment `GET`, never a
/// method folder), and the tree writer spells any segment so that it reads back that way.
public enum FolderNameEscapes {
    /// What a folder name holding a `%` stands for.
    public enum Decoding: Equatable, Sendable {
        case decoded(String)
        /// Why no request segment can be meant (a message for the loader's diagnostic).
        case refused(String)
    }

    /// Nil for a name without `%` (it is read as it is).
    public static func decode(_ name: String) -> Decoding? {
        let utf8 = Array(name.utf8)
        guard utf8.contains(UInt8(ascii: "%")) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            guard utf8[index] == UInt8(ascii: "%") else {
                bytes.append(utf8[index])
                index += 1
                continue
            }
            guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            else {
                return .refused(
                    "the folder name '\(name)' has a '%' not followed by two hexadecimal digits; write a literal '%' as %25"
                )
            }
            let byte = high << 4 | low
            switch byte {
            case UInt8(ascii: "/"):
                return .refused(
                    "the folder name '\(name)' holds %2F, a '/', which a folder cannot stand for; match a segment sent with %2F by a {name} or * folder"
                )
            case 0:
                return .refused(
                    "the folder name '\(name)' holds %00, which no path segment can hold; rename the folder")
            default: bytes.append(byte)
            }
            index += 3
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .refused("the folder name '\(name)' decodes to bytes that are not UTF-8; rename the folder")
        }
        guard text != ".", text != ".." else {
            return .refused(
                "the folder name '\(name)' decodes to '\(text)', a segment the server answers with 400 and never routes; rename the folder"
            )
        }
        return .decoded(text)
    }

    /// Why `text` cannot be a path segment at all (nil when it can): no request path has it as a segment.
    public static func problem(withSegment text: String) -> String? {
        var utf8 = text
        return utf8.withUTF8 { bytes in
            if bytes.isEmpty { return "an empty path segment" }
            if bytes.allSatisfy({ $0 == UInt8(ascii: ".") }), bytes.count <= 2 { return "the path segment '\(text)'" }
            if bytes.contains(UInt8(ascii: "/")) { return "a path segment holding '/'" }
            if bytes.contains(0) { return "a path segment holding a NUL byte" }
            return nil
        }
    }

    /// The folder name that matches exactly the segment `text` and nothing else, in a tree the writer
    /// writes: as it is when it reads as plain text, else with the characters that would make it a pattern
    /// (`*`, `**`, `{id}`, `:id`), a hidden folder (`.x`), the admin API's folder (at the root) or one of the
    /// writer's own method folders (`GET`, as the writer spells them) escaped, and `%` and control characters
    /// always escaped. A method's name in another case (`get`) stays as it is: the loader reads a method-named
    /// folder holding a sub-folder and no configuration as a path component, which a written segment's folder
    /// always is (see `escapedSpelling(ofMethodNamedSegment:)` for a tree that has such a method folder
    /// already). `text` must pass `problem(withSegment:)`.
    public static func folderName(forSegment text: String, atRoot: Bool) -> String {
        let escaped: (UInt8) -> Bool = { $0 == UInt8(ascii: "%") || $0 < 0x20 || $0 == 0x7F }
        var name = text
        if text.utf8.contains(where: escaped) {
            var bytes: [UInt8] = []
            for byte in text.utf8 {
                if escaped(byte) { bytes += escape(byte).utf8 } else { bytes.append(byte) }
            }
            name = String(decoding: bytes, as: UTF8.self)
        }
        let first = name.utf8.first!
        switch first {
        case UInt8(ascii: "*"):
            if name == "*" || name == "**" {
                return String(repeating: escape(UInt8(ascii: "*")), count: name.utf8.count)
            }
        case UInt8(ascii: "{"), UInt8(ascii: ":"):
            if RouteSegment(folderName: name).parameterName != nil {
                if first == UInt8(ascii: ":") { return escape(UInt8(ascii: ":")) + name.dropFirst() }
                return escape(UInt8(ascii: "{")) + name.dropFirst().dropLast() + escape(UInt8(ascii: "}"))
            }
        case UInt8(ascii: "."):
            return escape(first) + String(Substring(name.utf8.dropFirst()))
        default:
            // A method folder's name as the writer spells it (upper case: the exchange of the path above,
            // written later, would make it a method folder), or the admin API's folder at the root.
            if (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z") && HTTPMethod(name: name)?.name == name)
                || (atRoot && first == UInt8(ascii: "_") && name == TreeLoader.reservedFolder)
            {
                return escape(first) + String(Substring(name.utf8.dropFirst()))
            }
        }
        return name
    }

    /// The escaped folder name of a segment that `folderName(forSegment:atRoot:)` leaves as it is although it
    /// names a method (`get` as `%67et`), for where the plain name is already taken by a method folder (a
    /// person's `get/`) or the escaped folder is there already (a tree written with it); nil for any other
    /// segment.
    public static func escapedSpelling(ofMethodNamedSegment text: String) -> String? {
        guard let method = HTTPMethod(name: text), method.name != text else { return nil }
        return escape(text.utf8.first!) + String(Substring(text.utf8.dropFirst()))
    }

    private static func escape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
