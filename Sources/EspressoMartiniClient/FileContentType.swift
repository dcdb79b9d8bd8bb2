/// The `Content-Type` the server gives a `response_file` by its extension (doc/tree.md), for the bodies
/// the admin API takes inline, where there is no file name to tell it.
enum FileContentType {
    static let json = "application/json"
    static let unknown = "application/octet-stream"

    static let byExtension: [String: String] = [
        "json": json, "txt": "text/plain; charset=utf-8", "text": "text/plain; charset=utf-8",
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
        "csv": "text/csv; charset=utf-8", "md": "text/markdown; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8", "xml": "application/xml",
        "yaml": "application/yaml", "yml": "application/yaml", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "bmp": "image/bmp", "avif": "image/avif",
        "svg": "image/svg+xml", "ico": "image/x-icon", "pdf": "application/pdf", "zip": "application/zip",
        "gz": "application/gzip", "tar": "application/x-tar", "wasm": "application/wasm", "mp3": "audio/mpeg",
        "wav": "audio/wav", "ogg": "audio/ogg", "mp4": "video/mp4", "webm": "video/webm", "woff": "font/woff",
        "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf", "bin": unknown,
    ]

    /// The type of a file named `name`, by its extension in any case; `application/octet-stream` when unknown.
    static func forFile(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return unknown }
        return byExtension[name[name.index(after: dot)...].lowercased()] ?? unknown
    }
}
