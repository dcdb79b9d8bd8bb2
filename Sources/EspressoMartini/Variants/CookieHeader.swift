/// Reads cookies from `Cookie` header values (`a=1; b=2`).
public enum CookieHeader {
    /// The values of the cookies named `name` (case-sensitive) in all `headerValues`, in order.
    /// Pairs are separated by `;`, with spaces and tabs around names and values trimmed; a pair without
    /// `=` is a name with the empty value; values are kept as sent (quotes and `%` escapes included).
    public static func values(named name: String, in headerValues: [String]) -> [String] {
        var values: [String] = []
        for header in headerValues {
            for pair in header.utf8.split(separator: UInt8(ascii: ";")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                guard trimmed(pair[..<(equals ?? pair.endIndex)]).elementsEqual(name.utf8) else { continue }
                values.append(
                    equals.map { String(decoding: trimmed(pair[pair.index(after: $0)...]), as: UTF8.self) } ?? "")
            }
        }
        return values
    }

    private static func trimmed(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }
}
