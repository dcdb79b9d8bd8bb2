/// A plain JSON value as a template's whole context.
extension JSONValue: MustacheContext {
    public func value(at path: [String]) -> JSONValue? {
        descendant(at: path)
    }

    public func rootValue() -> JSONValue { self }
}

extension JSONValue {
    /// The value reached by following `path` from this one: an object's member by key (the first
    /// member with that key), an array's element by decimal index (`items.0`). Nil when any step is
    /// missing; an empty path gives `self`.
    public func descendant(at path: some Sequence<String>) -> JSONValue? {
        var current = self
        for segment in path {
            guard let next = current.child(named: segment) else { return nil }
            current = next
        }
        return current
    }

    func child(named name: String) -> JSONValue? {
        switch self {
        case .object(let members):
            return members.first { $0.key == name }?.value
        case .array(let elements):
            guard let index = Int(name), elements.indices.contains(index),
                name.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else {
                return nil
            }
            return elements[index]
        default:
            return nil
        }
    }

    /// Whether a section renders for this value, as `!!value` in JavaScript (the spec's own
    /// example): false, null, 0, NaN, the empty string and the empty list are false; an object,
    /// even empty, is true.
    var isMustacheTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .integer(let value): value != 0
        case .real(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .array(let elements): !elements.isEmpty
        case .object: true
        }
    }
}
