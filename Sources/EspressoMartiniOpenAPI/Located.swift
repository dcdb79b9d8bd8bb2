import EspressoMartini

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
