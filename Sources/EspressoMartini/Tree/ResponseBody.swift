/// What a response sends after its headers.
public enum ResponseBody: Sendable, Equatable {
    case none
    /// `body` in the configuration: a string as is, any other JSON value as compact JSON.
    case inline(JSONValue)
    /// `response_file`: as written in the configuration, the resolved path, and the size at load time.
    case file(name: String, path: String, size: Int)

    /// The bytes of an inline body.
    public var inlineBytes: [UInt8] {
        guard case .inline(let value) = self else { return [] }
        if case .string(let text) = value { return Array(text.utf8) }
        return Array(value.compactText.utf8)
    }
}
