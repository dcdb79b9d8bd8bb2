import EspressoMartini

/// Where a value sits in the files of a description: the file, and the reference tokens of the JSON Pointer
/// from its root (`["paths", "/pets", "get"]` is `/paths/~1pets/get`).
struct JSONLocation: Hashable, Sendable {
    let file: String
    let tokens: [String]

    init(file: String, tokens: [String] = []) {
        self.file = file
        self.tokens = tokens
    }

    func appending(_ tokens: String...) -> JSONLocation {
        JSONLocation(file: file, tokens: self.tokens + tokens)
    }

    /// The RFC 6901 pointer: `/paths/~1pets~1{petId}/get`; `""` for the root.
    var pointer: String {
        tokens.map { "/" + Self.escape($0) }.joined()
    }

    private static func escape(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }
}
