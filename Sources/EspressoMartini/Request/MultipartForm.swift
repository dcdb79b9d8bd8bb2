/// A `multipart/form-data` body (RFC 7578 on RFC 2046's multipart syntax): its parts in order, each with the
/// name and file name of its `Content-Disposition`, its `Content-Type` and its content bytes. The boundary
/// comes from the request's `Content-Type` (`multipart/form-data; boundary=x`), so the same form sent with
/// another boundary reads as the same parts.
public struct MultipartForm: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        /// `Content-Disposition: form-data; name="NAME"`.
        public let name: String
        /// `filename="a.png"`, for a file; nil when the part has none.
        public let filename: String?
        /// The part's own `Content-Type` as sent; nil when it has none (a plain field).
        public let contentType: String?
        public let content: [UInt8]

        /// The content as text, bytes that are not UTF-8 repaired (U+FFFD).
        public var text: String { String(decoding: content, as: UTF8.self) }

        public init(name: String, filename: String? = nil, contentType: String? = nil, content: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.content = content
        }
    }

    /// In the order they were sent.
    public let parts: [Part]

    public init(parts: [Part]) {
        self.parts = parts
    }

    /// The parts of `body` sent with `contentType`; nil when the type is not `multipart/form-data` with a
    /// boundary, or the body is not a complete multipart body whose every part is a named `form-data` one.
    /// Lines end with CRLF; a bare LF is taken too.
    public init?(parsing body: some Collection<UInt8>, contentType: String) {
        guard ContentType.essence(contentType) == "multipart/form-data",
            let boundary = HeaderParameters(parsing: contentType).first(named: "boundary"), !boundary.isEmpty
        else { return nil }
        let bytes = Array(body)
        let delimiter = Array(("--" + boundary).utf8)
        // The first delimiter starts the body or a line (after a preamble); the others start a line.
        var index: Int
        if bytes.starts(with: delimiter) {
            index = delimiter.count
        } else if let found = Self.delimiter(delimiter, in: bytes, from: 0) {
            index = found.upperBound
        } else {
            return nil
        }
        var parts: [Part] = []
        while true {
            if bytes[index...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }  // the closing one
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
            guard let afterLine = Self.lineEnd(in: bytes, at: index),
                let next = Self.delimiter(delimiter, in: bytes, from: afterLine),
                let part = Self.part(bytes[afterLine..<next.lowerBound])
            else { return nil }
            parts.append(part)
            index = next.upperBound
        }
        self.parts = parts
    }

    /// The parts named `name`, in order.
    public func parts(named name: String) -> [Part] {
        parts.filter { $0.name == name }
    }

    /// The range of the next `CRLF--boundary` (or `LF--boundary`) at or after `start`, its line break included,
    /// followed by `--`, a space, a tab or a line break (not a longer boundary that starts with this one).
    private static func delimiter(_ delimiter: [UInt8], in bytes: [UInt8], from start: Int) -> Range<Int>? {
        var index = start
        while index + delimiter.count < bytes.count {
            guard let lineFeed = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let end = lineFeed + 1 + delimiter.count
            if bytes[(lineFeed + 1)...].starts(with: delimiter),
                end == bytes.count || [UInt8(ascii: "-"), 0x20, 0x09, 0x0D, 0x0A].contains(bytes[end])
            {
                let lineStart = lineFeed > start && bytes[lineFeed - 1] == UInt8(ascii: "\r") ? lineFeed - 1 : lineFeed
                return lineStart..<end
            }
            index = lineFeed + 1
        }
        return nil
    }

    /// Where the line starting at `index` ends, after its CRLF or LF; nil when `index` is not a line end.
    private static func lineEnd(in bytes: [UInt8], at index: Int) -> Int? {
        if bytes[index...].starts(with: [UInt8(ascii: "\r"), UInt8(ascii: "\n")]) { return index + 2 }
        if bytes[index...].starts(with: [UInt8(ascii: "\n")]) { return index + 1 }
        return nil
    }

    /// A part's head (header lines up to an empty line) and content; nil without a `form-data` name.
    private static func part(_ bytes: ArraySlice<UInt8>) -> Part? {
        var index = bytes.startIndex
        var disposition: HeaderParameters?
        var contentType: String?
        while true {
            let lineFeed = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            guard lineFeed < bytes.endIndex else { return nil }  // a head without its empty line
            var line = bytes[index..<lineFeed]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            index = lineFeed + 1
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = HeaderParameters.trimmed(line[(colon + 1)...])
            switch name {
            case "content-disposition": disposition = HeaderParameters(parsing: value)
            case "content-type": contentType = value.isEmpty ? nil : value
            default: break
            }
        }
        guard let disposition, disposition.value.lowercased() == "form-data",
            let name = disposition.first(named: "name")
        else { return nil }
        return Part(
            name: name, filename: disposition.first(named: "filename"), contentType: contentType,
            content: Array(bytes[index...]))
    }
}
