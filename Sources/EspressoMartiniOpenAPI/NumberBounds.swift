import EspressoMartini

/// The range a schema allows a number: `minimum` and `maximum`, exclusive by a boolean (draft 4: Swagger 2.0,
/// OpenAPI 3.0) or as numbers of their own (3.1), and `format: int32`'s range.
struct NumberBounds {
    struct Bound {
        let value: Double
        let exclusive: Bool
    }

    var lower: Bound?
    var upper: Bound?

    init(_ schema: JSONValue) {
        let minimum = schema.member("minimum")?.numberValue
        let maximum = schema.member("maximum")?.numberValue
        lower = minimum.map { Bound(value: $0, exclusive: schema.member("exclusiveMinimum") == .bool(true)) }
        upper = maximum.map { Bound(value: $0, exclusive: schema.member("exclusiveMaximum") == .bool(true)) }
        if let exclusive = schema.member("exclusiveMinimum")?.numberValue, lower.map({ exclusive >= $0.value }) ?? true
        {
            lower = Bound(value: exclusive, exclusive: true)
        }
        if let exclusive = schema.member("exclusiveMaximum")?.numberValue, upper.map({ exclusive <= $0.value }) ?? true
        {
            upper = Bound(value: exclusive, exclusive: true)
        }
    }

    /// Both sets of bounds at once: the higher lower bound, the lower upper one.
    mutating func narrow(to other: NumberBounds) {
        if let bound = other.lower,
            lower.map({ bound.value > $0.value || (bound.value == $0.value && bound.exclusive) }) ?? true
        {
            lower = bound
        }
        if let bound = other.upper,
            upper.map({ bound.value < $0.value || (bound.value == $0.value && bound.exclusive) }) ?? true
        {
            upper = bound
        }
    }
}
