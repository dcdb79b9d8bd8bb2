import EspressoMartini

/// How the keywords of one schema object read, the same for the validator and the generator.
enum SchemaKeywords {
    /// The types `type` allows (`"string"`, or a list in 3.1); nil when it says nothing.
    static func types(_ schema: JSONValue) -> [String]? {
        switch schema.member("type") {
        case .string(let type)?: [type]
        case .array(let types)?:
            types.compactMap { type -> String? in
                guard case .string(let name) = type else { return nil }
                return name
            }
        default: nil
        }
    }

    /// `nullable: true` (OpenAPI 3.0) or `x-nullable: true` (a Swagger 2.0 extension): null is allowed too.
    static func isNullable(_ schema: JSONValue) -> Bool {
        schema.member("nullable") == .bool(true) || schema.member("x-nullable") == .bool(true)
    }

    /// A count keyword (`minLength`, `maxItems`): an integer, or a number without a fraction.
    static func integer(_ schema: JSONValue, _ key: String) -> Int? {
        switch schema.member(key) {
        case .integer(let value)?: Int(clamping: value)
        case .real(let value)? where value.rounded() == value && abs(value) < 1e15: Int(value)
        default: nil
        }
    }

    /// The item schemas by position: 3.1's `prefixItems`, or `items` given as an array (draft 4's tuples).
    static func prefixItems(_ schema: Located, version: OpenAPIVersion) -> [Located] {
        if let prefix = schema.member("prefixItems") { return prefix.elements }
        if let items = schema.member("items"), case .array = items.value { return items.elements }
        return []
    }

    /// `an integer`, as messages name a type.
    static func typeName(_ type: String) -> String {
        switch type {
        case "integer", "object", "array": "an \(type)"
        case "null": "null"
        default: "a \(type)"
        }
    }
}
