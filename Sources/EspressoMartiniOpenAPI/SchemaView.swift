import EspressoMartini

/// The schema objects that all apply to one value, flattened: a schema, the targets of its `$ref`s and the
/// members of its `allOf`, each where it sits. The generator reads their keywords together (`allOf`
/// merged): the types all allow, the narrowest bounds, every property, every required name.
struct SchemaView {
    var parts: [Located] = []
    /// A `false` schema is among them: no value is allowed.
    var refusesEverything = false
    /// The `oneOf`/`anyOf` lists already chosen from (by their location), so a branch is not chosen again.
    var chosen: Set<JSONLocation> = []

    /// The first part's value of `key`, located.
    func first(_ key: String) -> Located? {
        for part in parts {
            if let value = part.member(key) { return value }
        }
        return nil
    }

    /// The first `oneOf` or `anyOf` not chosen from yet.
    var nextChoice: Located? {
        for part in parts {
            for key in ["oneOf", "anyOf"] {
                if let choice = part.member(key), case .array(let branches) = choice.value, !branches.isEmpty,
                    !chosen.contains(choice.location)
                {
                    return choice
                }
            }
        }
        return nil
    }

    /// The types every part allows, in the order the first part that names types lists them; nil when none
    /// names any.
    var types: [String]? {
        var allowed: [String]?
        for part in parts {
            guard var types = SchemaKeywords.types(part.value) else { continue }
            if SchemaKeywords.isNullable(part.value) { types.append("null") }
            guard let earlier = allowed else {
                allowed = types
                continue
            }
            var narrowed = earlier.filter { type in
                types.contains(type) || (type == "integer" && types.contains("number"))
            }
            if earlier.contains("number"), types.contains("integer"), !narrowed.contains("integer") {
                narrowed.append("integer")
            }
            allowed = narrowed
        }
        return allowed
    }

    /// The largest of the parts' values of a count keyword (`minItems`).
    func largest(_ key: String) -> Int? {
        parts.compactMap { SchemaKeywords.integer($0.value, key) }.max()
    }

    /// The smallest of the parts' values of a count keyword (`maxLength`).
    func smallest(_ key: String) -> Int? {
        parts.compactMap { SchemaKeywords.integer($0.value, key) }.min()
    }

    /// Whether any part sets `key` to true (`uniqueItems`).
    func anyTrue(_ key: String) -> Bool {
        parts.contains { $0.value.member(key) == .bool(true) }
    }

    var numberBounds: NumberBounds {
        var bounds = NumberBounds(.null)
        for part in parts { bounds.narrow(to: NumberBounds(part.value)) }
        return bounds
    }

    /// Every property any part names, in the order first named, with the schemas every part gives it.
    var properties: [(name: String, schemas: [Located])] {
        var order: [String] = []
        var schemas: [String: [Located]] = [:]
        for part in parts {
            for (name, schema) in part.member("properties")?.members ?? [] {
                if schemas[name] == nil { order.append(name) }
                schemas[name, default: []].append(schema)
            }
        }
        return order.map { ($0, schemas[$0]!) }
    }

    /// The names any part requires, in the order first named.
    var required: [String] {
        var names: [String] = []
        for part in parts {
            for element in part.member("required")?.elements ?? [] {
                if let name = element.string, !names.contains(name) { names.append(name) }
            }
        }
        return names
    }

    /// The parts' `additionalProperties` schemas (objects), and whether one of them is `false`.
    var additionalProperties: (schemas: [Located], refused: Bool) {
        var schemas: [Located] = []
        var refused = false
        for part in parts {
            guard let additional = part.member("additionalProperties") else { continue }
            switch additional.value {
            case .bool(false): refused = true
            case .object: schemas.append(additional)
            default: break
            }
        }
        return (schemas, refused)
    }

    /// The parts' schemas for items after the positional ones (`items` given as one schema).
    var itemSchemas: [Located] {
        parts.compactMap { part in
            guard let items = part.member("items"), case .object = items.value else { return nil }
            return items
        }
    }

    /// Whether a part forbids items beyond the positional ones (3.1's `items: false`).
    var refusesMoreItems: Bool {
        parts.contains { $0.value.member("items") == .bool(false) }
    }
}
