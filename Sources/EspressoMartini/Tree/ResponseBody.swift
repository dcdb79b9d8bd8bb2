/// What a response sends after its headers.
public enum ResponseBody: Sendable, Equatable {
    case none
    /// `body` in the configuration: a string as is, any other JSON value as compact JSON.
    case inline(JSONValue)
    /// `response_file`: as written in the configuration, the resolved path, the size at load time, and
    /// the bytes when the loader read them (small files, so that the server need not open them again).
    case file(name: String, path: String, size: Int, bytes: FileBytes? = nil)

    /// The bytes of an inline body.
    public var inlineBytes: [UInt8] {
        guard case .inline(let value) = self else { return [] }
        if case .string(let text) = value { return Array(text.utf8) }
        return Array(value.compactText.utf8)
    }

    /// Files are the same body when they are the same file: the bytes read from it are left out.
    public static func == (a: ResponseBody, b: ResponseBody) -> Bool {
        switch (a, b) {
        case (.none, .none): true
        case (.inline(let x), .inline(let y)): x == y
        case (.file(let nameA, let pathA, let sizeA, _), .file(let nameB, let pathB, let sizeB, _)):
            nameA == nameB && pathA == pathB && sizeA == sizeB
        default: false
        }
    }
}
