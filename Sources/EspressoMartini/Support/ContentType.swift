/// The `Content-Type` derived from a response file's extension.
public enum ContentType {
    static let byExtension: [String: String] = [
        "json": "application/json",
        "txt": "text/plain; charset=utf-8",
        "text": "text/plain; charset=utf-8",
        "html": "text/html; charset=utf-8",
        "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "csv": "text/csv; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8",
        "xml": "application/xml",
        "yaml": "application/yaml",
        "yml": "application/yaml",
        "md": "text/markdown; charset=utf-8",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "svg": "image/svg+xml",
        "ico": "image/x-icon",
        "bmp": "image/bmp",
        "avif": "image/avif",
        "pdf": "application/pdf",
        "zip": "application/zip",
        "gz": "application/gzip",
        "tar": "application/x-tar",
        "wasm": "application/wasm",
        "mp3": "audio/mpeg",
        "wav": "audio/wav",
        "ogg": "audio/ogg",
        "mp4": "video/mp4",
        "webm": "video/webm",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "bin": "application/octet-stream",
    ]

    public static let json = "application/json"
    public static let plainText = "text/plain; charset=utf-8"
    public static let yaml = "application/yaml"
    public static let unknown = "application/octet-stream"

    /// The media type of a `Content-Type` value, in lower case, without parameters or spaces:
    /// `application/json; charset=utf-8` → `application/json`.
    public static func mediaType(of contentType: String) -> String {
        // Most are written so already (`application/json`): the text itself, nothing copied.
        let plain = contentType.utf8.allSatisfy { byte in
            byte < 0x80 && byte != UInt8(ascii: ";") && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")
                && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        if plain { return contentType }
        var bytes: [UInt8] = []
        for byte in contentType.utf8 {
            switch byte {
            case UInt8(ascii: ";"): return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: " "), UInt8(ascii: "\t"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
            case 0x80...:
                return String(contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The type for a file name, by its extension (any case); unknown extensions are octet streams.
    public static func forFile(_ name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return unknown }
        let fileExtension = base[base.index(after: dot)...].lowercased()
        return byExtension[fileExtension] ?? unknown
    }

    /// The extension a body of `contentType` is written with (the tree writer's `response-N.EXT`): the one
    /// whose type is that media type (`application/json` → `json`, `text/plain` → `txt`), `json` and `xml`
    /// for any `+json` and `+xml` type, `txt` for other `text/*` types, `bin` when unknown.
    public static func fileExtension(for contentType: String) -> String {
        let essence = Self.essence(contentType)
        if let known = preferredExtension[essence] { return known }
        if essence.hasSuffix("+json") { return "json" }
        if essence.hasSuffix("+xml") || essence == "text/xml" { return "xml" }
        if essence.hasPrefix("text/") { return "txt" }
        return "bin"
    }

    /// The media type without its parameters, in lower case: `application/json` for `Application/JSON; charset=utf-8`.
    public static func essence(_ contentType: String) -> String {
        var contentType = contentType
        return contentType.withUTF8 { utf8 in
            let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            var end = utf8.firstIndex(of: UInt8(ascii: ";")) ?? utf8.endIndex
            var start = utf8.startIndex
            while start < end, blank(utf8[start]) { start += 1 }
            while end > start, blank(utf8[end - 1]) { end -= 1 }
            let type = UnsafeBufferPointer(rebasing: utf8[start..<end])
            // Media types are ASCII; anything else is lowered as text.
            if type.contains(where: { $0 >= 0x80 }) { return String(decoding: type, as: UTF8.self).lowercased() }
            return String(unsafeUninitializedCapacity: type.count) { buffer in
                for index in 0..<type.count { buffer[index] = type[index].lowercasedASCII }
                return type.count
            }
        }
    }

    /// Each media type's extension; where several extensions share a type, the usual one.
    private static let preferredExtension: [String: String] = {
        let usual: Set<String> = ["txt", "html", "js", "yaml", "jpg"]
        var table: [String: String] = [:]
        for (fileExtension, type) in byExtension.sorted(by: { $0.key < $1.key }) {
            let essence = Self.essence(type)
            if table[essence] == nil || usual.contains(fileExtension) { table[essence] = fileExtension }
        }
        table["application/javascript"] = "js"
        table["application/x-yaml"] = "yaml"
        table["text/yaml"] = "yaml"
        return table
    }()
}
