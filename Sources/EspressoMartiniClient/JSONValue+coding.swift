import Foundation

extension JSONValue: Codable {
    /// Reads any JSON value; a number is an `integer` when it is a whole number that fits in an `Int`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .integer(let integer): try container.encode(integer)
        case .number(let number): try container.encode(number)
        case .bool(let bool): try container.encode(bool)
        case .null: try container.encodeNil()
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }

    /// The JSON text `data` holds, as a value; throws when it is not JSON.
    public init(jsonData data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value as `JSONSerialization` gives and takes it: `String`, `Int`, `Double`, `Bool`, `NSNull`,
    /// `[Any]` and `[String: Any]`, as the `when:` of `count` and `requests` takes it.
    public var foundationObject: Any {
        switch self {
        case .string(let string): string
        case .integer(let integer): integer
        case .number(let number): number
        case .bool(let bool): bool
        case .null: NSNull()
        case .array(let elements): elements.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }
}

extension JSONValue {
    /// `value` as `encoder` writes it, read back as a value: what a `Condition.json` matcher compares a
    /// request's JSON with, `.json("/customer", .equals(try JSONValue(encoding: customer)))`.
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        do {
            self = try JSONValue(jsonData: try encoder.encode(value))
        } catch {
            throw MockServerError.invalidArgument("the value cannot be encoded as JSON: \(error)")
        }
    }
}
