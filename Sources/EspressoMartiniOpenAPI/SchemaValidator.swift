import EspressoMartini

/// Checks a value against a description's schema, as JSON Schema (draft 4 for Swagger 2.0 and OpenAPI 3.0,
/// with `nullable`; 2020-12 for OpenAPI 3.1) says, for the keywords that decide what a value may be: `type`,
/// `enum`, `const`, bounds and `multipleOf`, lengths and `pattern`, items, properties, `required`,
/// `additionalProperties`, `allOf`, `anyOf`, `oneOf`, `not`, `$ref`. `format` is an annotation, as JSON
/// Schema has it by default, and is not checked. Used for the description's examples (a warning names an
/// example that breaks its schema) and for the bodies generated.
final class SchemaValidator {
    let files: DescriptionFiles
    let version: OpenAPIVersion
    /// Each `pattern` compiled once; nil for one Swift's regular expressions cannot read (it is not checked).
    private var patterns: [String: Regex<AnyRegexOutput>?] = [:]

    /// Why a value breaks its schema: where in the value (`/0/id`) and what.
    struct Problem: Sendable, CustomStringConvertible {
        let path: [String]
        let message: String

        var description: String {
            path.isEmpty ? message : JSONLocation(file: "", tokens: path).pointer + ": " + message
        }
    }

    /// `$ref`s followed in a row without going into the value: more means a loop of references.
    private static let referenceHopLimit = 64

    init(files: DescriptionFiles, version: OpenAPIVersion) {
        self.files = files
        self.version = version
    }

    /// The first thing that makes `value` break `schema`; nil when it is valid.
    func problem(in value: JSONValue, against schema: Located) -> Problem? {
        check(value, schema, path: [], hops: 0, deep: true)
    }

    /// The first thing that makes `value` break the keywords of `schema` (through its `$ref`s) that look at
    /// the value itself, not at its items, properties or `allOf`/`anyOf`/`oneOf`/`not`: what the generator
    /// checks of each value it makes, whose parts it has checked already.
    func localProblem(in value: JSONValue, against schema: Located) -> Problem? {
        check(value, schema, path: [], hops: 0, deep: false)
    }

    func isValid(_ value: JSONValue, against schemas: [Located]) -> Bool {
        schemas.allSatisfy { problem(in: value, against: $0) == nil }
    }

    private func check(_ value: JSONValue, _ schema: Located, path: [String], hops: Int, deep: Bool) -> Problem? {
        switch schema.value {
        case .bool(false): return Problem(path: path, message: "no value is allowed here (the schema is false)")
        case .object: break
        default: return nil
        }
        if let reference = schema.member("$ref")?.string {
            // An unresolvable reference has its own warning; it does not make every value wrong.
            guard hops < Self.referenceHopLimit,
                case .success(let target) = files.resolve(reference, from: schema.location.file)
            else { return nil }
            if let problem = check(value, target, path: path, hops: hops + 1, deep: deep) { return problem }
            guard version.readsKeywordsBesideReferences else { return nil }
        }
        if value == .null, SchemaKeywords.isNullable(schema.value) { return nil }
        if let problem = checkType(value, schema.value, path: path) { return problem }
        if case .array(let allowed)? = schema.value.member("enum"),
            !allowed.contains(where: { $0.isEquivalent(to: value) })
        {
            return Problem(
                path: path,
                message: "\(Self.shortened(value)) is not one of its enum values \(Self.shortened(.array(allowed)))")
        }
        if let constant = schema.value.member("const"), !constant.isEquivalent(to: value) {
            return Problem(path: path, message: "\(Self.shortened(value)) is not its const \(Self.shortened(constant))")
        }
        let problem: Problem?
        switch value {
        case .integer, .real: problem = checkNumber(value, schema.value, path: path)
        case .string(let text): problem = checkString(text, schema.value, path: path)
        case .array(let items): problem = checkArray(items, schema, path: path, deep: deep)
        case .object(let members): problem = checkObject(members, schema, path: path, deep: deep)
        default: problem = nil
        }
        guard deep else { return problem }
        return problem ?? checkCombinations(value, schema, path: path, hops: hops)
    }

    private func checkType(_ value: JSONValue, _ schema: JSONValue, path: [String]) -> Problem? {
        guard let types = SchemaKeywords.types(schema), !types.contains(where: { Self.value(value, hasType: $0) })
        else { return nil }
        let expected = types.map(SchemaKeywords.typeName).joined(separator: " or ")
        return Problem(path: path, message: "expected \(expected), found \(value.kindName)")
    }

    static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .integer), ("number", .real),
            ("integer", .integer):
            true
        case ("integer", .real(let number)): number.rounded() == number && number.isFinite
        default: false
        }
    }

    private func checkNumber(_ value: JSONValue, _ schema: JSONValue, path: [String]) -> Problem? {
        guard let number = value.numberValue else { return nil }
        let bounds = NumberBounds(schema)
        if let lower = bounds.lower, number < lower.value || (lower.exclusive && number == lower.value) {
            return Problem(
                path: path,
                message:
                    "\(value.compactText) is below its \(lower.exclusive ? "exclusive " : "")minimum \(Self.number(lower.value))"
            )
        }
        if let upper = bounds.upper, number > upper.value || (upper.exclusive && number == upper.value) {
            return Problem(
                path: path,
                message:
                    "\(value.compactText) is above its \(upper.exclusive ? "exclusive " : "")maximum \(Self.number(upper.value))"
            )
        }
        if let step = schema.member("multipleOf")?.numberValue, step > 0, !Self.isMultiple(value, of: step) {
            return Problem(path: path, message: "\(value.compactText) is not a multiple of \(Self.number(step))")
        }
        return nil
    }

    static func isMultiple(_ value: JSONValue, of step: Double) -> Bool {
        if case .integer(let integer) = value, let whole = Int64(exactly: step) { return integer % whole == 0 }
        guard let number = value.numberValue else { return false }
        let quotient = number / step
        return quotient.isFinite && quotient.rounded() == quotient
    }

    private func checkString(_ text: String, _ schema: JSONValue, path: [String]) -> Problem? {
        let length = text.unicodeScalars.count
        if let minimum = SchemaKeywords.integer(schema, "minLength"), length < minimum {
            return Problem(
                path: path,
                message:
                    "\(Self.shortened(.string(text))) has \(length) characters, fewer than its minLength \(minimum)")
        }
        if let maximum = SchemaKeywords.integer(schema, "maxLength"), length > maximum {
            return Problem(
                path: path,
                message: "\(Self.shortened(.string(text))) has \(length) characters, more than its maxLength \(maximum)"
            )
        }
        if case .string(let pattern)? = schema.member("pattern"), let regex = compiled(pattern),
            (try? regex.firstMatch(in: text)) == nil
        {
            return Problem(
                path: path, message: "\(Self.shortened(.string(text))) does not match its pattern \(pattern)")
        }
        return nil
    }

    func compiled(_ pattern: String) -> Regex<AnyRegexOutput>? {
        if let known = patterns[pattern] { return known }
        let regex = try? Regex(pattern)
        patterns[pattern] = regex
        return regex
    }

    private func checkArray(_ items: [JSONValue], _ schema: Located, path: [String], deep: Bool) -> Problem? {
        if let minimum = SchemaKeywords.integer(schema.value, "minItems"), items.count < minimum {
            return Problem(path: path, message: "has \(items.count) items, fewer than its minItems \(minimum)")
        }
        if let maximum = SchemaKeywords.integer(schema.value, "maxItems"), items.count > maximum {
            return Problem(path: path, message: "has \(items.count) items, more than its maxItems \(maximum)")
        }
        if schema.value.member("uniqueItems") == .bool(true) {
            for (index, item) in items.enumerated() where items[..<index].contains(where: { $0.isEquivalent(to: item) })
            {
                return Problem(
                    path: path + [String(index)],
                    message: "repeats an earlier item, and its array's items must be unique")
            }
        }
        guard deep else { return nil }
        let prefix = SchemaKeywords.prefixItems(schema, version: version)
        let rest = schema.member("items").flatMap { $0.value.isArray ? nil : $0 }
        for (index, item) in items.enumerated() {
            guard let itemSchema = index < prefix.count ? prefix[index] : rest else { continue }
            if let problem = check(item, itemSchema, path: path + [String(index)], hops: 0, deep: true) {
                return problem
            }
        }
        return nil
    }

    private func checkObject(_ members: [JSONMember], _ schema: Located, path: [String], deep: Bool) -> Problem? {
        if case .array(let required)? = schema.value.member("required") {
            for case .string(let name) in required where !members.contains(where: { $0.key == name }) {
                return Problem(path: path, message: "lacks the required property '\(name)'")
            }
        }
        if let minimum = SchemaKeywords.integer(schema.value, "minProperties"), members.count < minimum {
            return Problem(
                path: path, message: "has \(members.count) properties, fewer than its minProperties \(minimum)")
        }
        if let maximum = SchemaKeywords.integer(schema.value, "maxProperties"), members.count > maximum {
            return Problem(
                path: path, message: "has \(members.count) properties, more than its maxProperties \(maximum)")
        }
        let properties = schema.member("properties")
        let patternProperties = schema.member("patternProperties")?.members ?? []
        let additional = schema.member("additionalProperties")
        for member in members {
            var matched = false
            if let propertySchema = properties?.member(member.key) {
                matched = true
                if deep,
                    let problem = check(member.value, propertySchema, path: path + [member.key], hops: 0, deep: true)
                {
                    return problem
                }
            }
            for (pattern, patternSchema) in patternProperties {
                guard let regex = compiled(pattern), (try? regex.firstMatch(in: member.key)) != nil else { continue }
                matched = true
                if deep,
                    let problem = check(member.value, patternSchema, path: path + [member.key], hops: 0, deep: true)
                {
                    return problem
                }
            }
            guard !matched, let additional else { continue }
            if additional.value == .bool(false) {
                return Problem(
                    path: path,
                    message:
                        "has the property '\(member.key)', which its schema does not allow (additionalProperties is false)"
                )
            }
            if deep, let problem = check(member.value, additional, path: path + [member.key], hops: 0, deep: true) {
                return problem
            }
        }
        return nil
    }

    private func checkCombinations(_ value: JSONValue, _ schema: Located, path: [String], hops: Int) -> Problem? {
        for part in schema.member("allOf")?.elements ?? [] {
            if let problem = check(value, part, path: path, hops: hops + 1, deep: true) { return problem }
        }
        if let choices = schema.member("anyOf")?.elements, !choices.isEmpty {
            let problems = choices.map { check(value, $0, path: path, hops: hops + 1, deep: true) }
            if let first = problems.first, !problems.contains(where: { $0 == nil }) {
                return Problem(path: path, message: "matches none of its anyOf schemas (the first: \(first!))")
            }
        }
        if let choices = schema.member("oneOf")?.elements, !choices.isEmpty {
            let problems = choices.map { check(value, $0, path: path, hops: hops + 1, deep: true) }
            let matches = problems.filter { $0 == nil }.count
            if matches == 0 {
                return Problem(path: path, message: "matches none of its oneOf schemas (the first: \(problems[0]!))")
            }
            if matches > 1 {
                return Problem(path: path, message: "matches \(matches) of its oneOf schemas, not exactly one")
            }
        }
        if let excluded = schema.member("not"), check(value, excluded, path: path, hops: hops + 1, deep: true) == nil {
            return Problem(path: path, message: "matches the schema under 'not'")
        }
        return nil
    }

    /// A value as messages quote it, cut short.
    static func shortened(_ value: JSONValue) -> String {
        let text = value.compactText
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

private extension JSONValue {
    var isArray: Bool {
        if case .array = self { return true }
        return false
    }
}
