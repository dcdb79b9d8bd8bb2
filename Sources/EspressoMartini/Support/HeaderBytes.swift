/// Header values holding bytes that are not UTF-8 (a Latin-1 `é` sent as the byte `E9`), kept byte for byte in a
/// `String`: each such byte as the private-use character U+10FF00 + byte, which no header value written as text
/// holds. The server sends them as those bytes again (`rawBytes(of:)`), and a tree writes and reads such a value
/// as `{"base64": "…"}` (doc/tree.md).
public enum HeaderBytes {
    private static let base: UInt32 = 0x10FF00

    /// `bytes` as a header value: their UTF-8 text where they are UTF-8, every other byte kept.
    public static func value(_ bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var at = 0
        while at < bytes.count {
            let lead = bytes[at]
            let length =
                lead < 0x80
                ? 1
                : (0xC2...0xDF).contains(lead)
                    ? 2
                    : (0xE0...0xEF).contains(lead)
                        ? 3
                        : (0xF0...0xF4).contains(lead) ? 4 : 0
            if length > 0, at + length <= bytes.count,
                let text = String(validating: bytes[at..<(at + length)], as: UTF8.self)
            {
                scalars.append(contentsOf: text.unicodeScalars)
                at += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(lead))!)
                at += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `value` stands for when it keeps bytes that are not UTF-8; nil for a value that is text (sent
    /// as its UTF-8). A value without the lead byte of those characters is text: one search of its bytes.
    public static func rawBytes(of value: String) -> [UInt8]? {
        guard value.utf8.contains(0xF4) else { return nil }
        var bytes: [UInt8] = [], kept = false
        for scalar in value.unicodeScalars {
            if scalar.value & ~0xFF == base {
                bytes.append(UInt8(scalar.value & 0xFF))
                kept = true
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return kept ? bytes : nil
    }

    /// `value` as a configuration writes it: a string, or `{"base64": …}` for one that keeps bytes.
    public static func json(_ value: String) -> JSONValue {
        guard let bytes = rawBytes(of: value) else { return .string(value) }
        return .object([JSONMember(key: "base64", value: .string(Base64.encode(bytes)))])
    }

    /// The value a configuration's `{"base64": …}` stands for; nil when `json` is no such object or its text is
    /// not base64.
    public static func value(fromJSON json: JSONValue) -> String? {
        guard case .object(let members) = json, members.count == 1, members[0].key == "base64",
            case .string(let text) = members[0].value, case .success(let bytes) = Base64.decode(text)
        else { return nil }
        return value(bytes)
    }
}
