/// A JSON value of the client's own: what a `Condition.json` matcher compares with, what an exchange's
/// configuration is built of. Written with literals: `"gold"`, `2`, `1.5`, `true`, `nil`, `["a", 1]`,
/// `["tier": "gold", "items": [1, 2]]`.
public enum JSONValue: Sendable, Hashable {
    case string(String)
    /// A whole number, kept exact (a `Double` would round integers above 2^53).
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// A key given twice keeps its last value, as JSON readers do.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// The string, for `.string`; nil for any other value.
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }
}
