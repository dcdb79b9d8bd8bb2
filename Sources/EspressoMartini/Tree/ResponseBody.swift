/// What a response sends after its headers.
public enum ResponseBody: Sendable, Equatable {
    case none
    /// `body` in the configuration: a string as is, any other JSON value as compact JSON.
    case inline(JSONValue)
    /// `body_base64` in the configuration: the bytes it encodes.
    case bytes([UInt8])
    /// `response_file`: as written in the configuration, the path it resolved to and the size it had when
    /// the tree was loaded. The path is nil for a plain file name in the method folder (nearly every file):
    /// `ExchangeTree.path(ofFile:at:in:)` derives it, so that a tree of thousands of files keeps no path
    /// string each. The loader only checks the file; the server reads it, or sends it from disk.
    case file(name: String, path: String?, size: Int)

    /// `response_file` as written in the configuration.
    public var fileName: String? {
        guard case .file(let name, _, _) = self else { return nil }
        return name
    }

    /// The bytes of an inline body (`body` or `body_base64`).
    public var inlineBytes: [UInt8] {
        switch self {
        case .inline(.string(let text)): Array(text.utf8)
        case .inline(let value): Array(value.compactText.utf8)
        case .bytes(let bytes): bytes
        case .none, .file: []
        }
    }
}
