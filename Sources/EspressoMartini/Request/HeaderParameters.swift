/// The `; name=value` parameters after a header's first value (RFC 9110 §5.6.6), as `Content-Type`
/// (`multipart/form-data; boundary=x`) and `Content-Disposition` (`form-data; name="a"; filename="b.png"`)
/// carry them: names in lower case, values unquoted (`\"` read as `"`). Never fails: a parameter without `=`
/// is skipped, an unclosed quote runs to the end.
public struct HeaderParameters: Sendable {
    /// The value before the first `;`, without spaces around it (`form-data`).
    public let value: String
    /// In the order they were given; names in lower case.
    public let parameters: [(name: String, value: String)]

    public init(parsing text: String) {
        let bytes = Array(text.utf8)
        var index = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        value = Self.trimmed(bytes[..<index])
        var parameters: [(name: String, value: String)] = []
        while index < bytes.endIndex {
            index += 1  // the `;`
            let nameStart = index
            while index < bytes.endIndex, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ";") {
                index += 1
            }
            let name = Self.trimmed(bytes[nameStart..<index]).lowercased()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < bytes.endIndex, Self.isBlank(bytes[index]) { index += 1 }
            var value: [UInt8] = []
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.endIndex { index += 1 }
                    value.append(bytes[index])
                    index += 1
                }
                // After the closing quote, up to the next parameter.
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: ";") { index += 1 }
            } else {
                let valueStart = index
                while index < bytes.endIndex, bytes[index] != UInt8(ascii: ";") { index += 1 }
                value = Array(Self.trimmed(bytes[valueStart..<index]).utf8)
            }
            if !name.isEmpty { parameters.append((name, String(decoding: value, as: UTF8.self))) }
        }
        self.parameters = parameters
    }

    /// The first value of parameter `name` (any case); nil when it is not given.
    public func first(named name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name }?.value
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// The bytes as text, without spaces and tabs around.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        var bytes = bytes
        while let first = bytes.first, isBlank(first) { bytes.removeFirst() }
        while let last = bytes.last, isBlank(last) { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
