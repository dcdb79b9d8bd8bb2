/// How `{{name}}` writes a value; `{{{name}}}` and `{{& name}}` never escape.
public enum MustacheEscaping: Sendable, Equatable {
    /// As the content of a JSON string (`JSONStringEscaping`), so a value can never end the string it sits in.
    case json
    /// `&`, `<`, `>`, `"` and `'` as HTML entities.
    case html
    /// As it is.
    case none

    /// The escaping a body of this `Content-Type` needs: JSON for `application/json` and `+json`
    /// types, HTML for HTML and XML types (`text/html`, `application/xml`, `text/xml`, `+xml`),
    /// none for anything else.
    public init(contentType: String) {
        let mediaType = ContentType.mediaType(of: contentType)
        if mediaType == "application/json" || mediaType.hasSuffix("+json") {
            self = .json
        } else if mediaType == "text/html" || mediaType == "application/xml" || mediaType == "text/xml"
            || mediaType.hasSuffix("+xml")
        {
            self = .html
        } else {
            self = .none
        }
    }

    /// Appends `string`'s UTF-8 bytes, escaped, to `output`.
    func append(_ string: String, to output: inout [UInt8]) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { append($0, to: &output) }
        if done == nil {
            Array(string.utf8).withUnsafeBufferPointer { append($0, to: &output) }
        }
    }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        switch self {
        case .none: output.append(contentsOf: bytes)
        case .json: JSONStringEscaping.appendEscaped(bytes, to: &output)
        case .html: Self.appendHTMLEscaped(bytes, to: &output)
        }
    }

    private static func appendHTMLEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var runStart = 0
        for index in 0..<bytes.count {
            let entity: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "\""): entity = "&quot;"
            case UInt8(ascii: "'"): entity = "&#39;"
            default: continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            runStart = index + 1
            output.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
}
