/// What a response sends after its headers.
public enum ResponseBody: Sendable, Equatable {
    case none
    /// `body` in the configuration: a string as is, any other JSON value as compact JSON.
    case inline(JSONValue)
    /// `response_file` read when the tree was loaded (small files): as written in the configuration,
    /// and its bytes, which the server sends without opening the file again. No path is kept: on a
    /// tree of thousands of files the paths would outweigh the bytes.
    case loadedFile(name: String, bytes: FileBytes)
    /// `response_file` left on disk (large files): as written in the configuration, the resolved path,
    /// and the size at load time. Not `indirect`, though it would make every response smaller: the enum
    /// would then keep its case in the spare bits of the small file's bytes pointer, which the address
    /// sanitizer's leak check cannot follow.
    case file(name: String, path: String, size: Int)

    /// `response_file` as written in the configuration, for either kind of file.
    public var fileName: String? {
        switch self {
        case .loadedFile(let name, _), .file(let name, _, _): name
        case .none, .inline: nil
        }
    }

    /// The bytes of an inline body.
    public var inlineBytes: [UInt8] {
        guard case .inline(let value) = self else { return [] }
        if case .string(let text) = value { return Array(text.utf8) }
        return Array(value.compactText.utf8)
    }

    public static func == (a: ResponseBody, b: ResponseBody) -> Bool {
        switch (a, b) {
        case (.none, .none): true
        case (.inline(let x), .inline(let y)): x == y
        case (.loadedFile(let nameA, let bytesA), .loadedFile(let nameB, let bytesB)): nameA == nameB && bytesA == bytesB
        case (.file(let nameA, let pathA, let sizeA), .file(let nameB, let pathB, let sizeB)):
            nameA == nameB && pathA == pathB && sizeA == sizeB
        default: false
        }
    }
}
