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

/// A value of a description and where it sits.
struct Located: Sendable {
    let value: JSONValue
    let location: JSONLocation

    /// The member `key` of an object, located; nil when there is none.
    func member(_ key: String) -> Located? {
        value.member(key).map { Located(value: $0, location: location.appending(key)) }
    }

    /// An object's members, located, in file order; empty for anything else.
    var members: [(key: String, value: Located)] {
        guard case .object(let members) = value else { return [] }
        return members.map { ($0.key, Located(value: $0.value, location: location.appending($0.key))) }
    }

    /// An array's elements, located; empty for anything else.
    var elements: [Located] {
        guard case .array(let elements) = value else { return [] }
        return elements.enumerated().map { Located(value: $1, location: location.appending(String($0))) }
    }

    var string: String? {
        guard case .string(let text) = value else { return nil }
        return text
    }
}
