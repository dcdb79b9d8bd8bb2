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
    public static let unknown = "application/octet-stream"

    /// The media type of a `Content-Type` value, in lower case, without parameters or spaces:
    /// `application/json; charset=utf-8` → `application/json`.
    public static func mediaType(of contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
    }

    /// The type for a file name, by its extension (any case); unknown extensions are octet streams.
    public static func forFile(_ name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return unknown }
        let fileExtension = base[base.index(after: dot)...].lowercased()
        return byExtension[fileExtension] ?? unknown
    }
}
