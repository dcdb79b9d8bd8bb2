import EspressoMartini

/// Makes a value from a schema, the same every time and valid against it wherever the schema can be met:
/// a valid `example`, `default`, `const` or first `enum` value where the schema gives one; else by type,
/// `allOf` merged, the first `oneOf`/`anyOf` branch whose value validates, every property (`writeOnly` ones
/// left out unless required), `minItems` items (at least one), strings by `format`, `pattern` and lengths,
/// numbers within bounds and `multipleOf`. A `$ref` that leads back into a schema being generated cuts the
/// cycle there (with a warning): an optional property is left out, a required one is null, an array is empty.
final class SchemaGenerator {
    let files: DescriptionFiles
    let validator: SchemaValidator
    var version: OpenAPIVersion { validator.version }
    private var report: ImportReport { files.report }

    /// The `$ref` targets being generated, outermost first.
    private var stack: [JSONLocation] = []
    /// Values generated for a `$ref`'s target (with a variation) that do not depend on where they were made,
    /// and how many values each holds: a schema shared by many operations is generated once.
    private var memo: [MemoKey: (value: JSONValue, count: Int)] = [:]
    /// The lowest position on the stack a cycle cut since it was last reset led back to (-1 when growth was
    /// stopped): a value whose cuts all lead back inside it is the same wherever it is made.
    private var cutFloor = Int.max
    /// Values made for the body under way.
    private var count = 0
    private var stoppedGrowing = false

    private struct MemoKey: Hashable {
        let target: JSONLocation
        let variation: Int
    }

    /// Values one body may hold; past it, the body stops growing (a warning says so).
    static let valueLimit = 100_000
    /// `$ref`s inside one another at most.
    static let nestingLimit = 100
    /// Characters a generated string has at most, whatever its `minLength` asks.
    static let longestString = 65_536

    init(files: DescriptionFiles, validator: SchemaValidator) {
        self.files = files
        self.validator = validator
    }

    /// A value for `schema`.
    func value(for schema: Located) -> JSONValue {
        count = 0
        stoppedGrowing = false
        return generate([schema], variation: 0) ?? .null
    }

    /// A value for all of `schemas` at once; nil where a cycle is cut. `variation` > 0 asks for a value
    /// other than the first (items of an array whose items must be unique).
    func generate(_ schemas: [Located], variation: Int) -> JSONValue? {
        if schemas.count == 1, let reference = Self.plainReference(schemas[0], version: version) {
            return generate(reference: reference, at: schemas[0].location, variation: variation)
        }
        var view = SchemaView()
        var pushed = 0
        defer { stack.removeLast(pushed) }
        for schema in schemas {
            guard expand(schema, into: &view, pushed: &pushed) else { return nil }
        }
        return generate(view, variation: variation)
    }

    /// The `$ref` of a schema that is only a reference (keywords beside it ignored, or annotations only).
    private static func plainReference(_ schema: Located, version: OpenAPIVersion) -> String? {
        guard case .object(let members) = schema.value, let reference = schema.member("$ref")?.string else {
            return nil
        }
        guard version.readsKeywordsBesideReferences else { return reference }
        let annotations: Set<String> = ["$ref", "description", "summary", "title", "$comment"]
        return members.allSatisfy { annotations.contains($0.key) } ? reference : nil
    }

    private func generate(reference: String, at location: JSONLocation, variation: Int) -> JSONValue? {
        let target: Located
        switch enter(reference, at: location) {
        case .entered(let entered): target = entered
        case .unresolved: return .object([])
        case .cut: return nil
        }
        defer { stack.removeLast() }
        let key = MemoKey(target: target.location, variation: variation)
        if let known = memo[key] {
            count += known.count
            return known.value
        }
        let (floorOutside, countBefore) = (cutFloor, count)
        cutFloor = Int.max
        let value = generate([target], variation: variation)
        if let value, cutFloor >= stack.count - 1 { memo[key] = (value, count - countBefore) }
        cutFloor = min(cutFloor, floorOutside)
        return value
    }

    /// What following a `$ref` came to.
    private enum Entry {
        /// Its target, now on the stack.
        case entered(Located)
        /// It cannot be resolved: `{}` stands in its place.
        case unresolved
        /// Its target is being generated already (a cycle), or references nest too deep: the value stops here.
        case cut
    }

    /// The target of `reference`, pushed on the stack; with a warning when it cannot be resolved, or when it
    /// is already being generated or nested too deep.
    private func enter(_ reference: String, at location: JSONLocation) -> Entry {
        switch files.resolve(reference, from: location.file) {
        case .failure(let why):
            report.warning(
                at: location, "$ref '\(reference)' cannot be resolved: \(why.message); {} stands in its place")
            return .unresolved
        case .success(let target):
            if let repeated = stack.firstIndex(of: target.location) {
                cutFloor = min(cutFloor, repeated)
                report.warning(
                    at: location,
                    "$ref '\(reference)' leads back into a schema it is part of; the cycle is cut here (an optional property is left out, a required one is null, an array is empty)"
                )
                return .cut
            }
            guard stack.count < Self.nestingLimit else {
                cutFloor = -1
                report.warning(
                    at: location,
                    "schemas nest more than \(Self.nestingLimit) $refs deep here; the generated value stops here")
                return .cut
            }
            stack.append(target.location)
            return .entered(target)
        }
    }

    /// Adds `schema` to `view` with the targets of its `$ref`s and the members of its `allOf`, pushing each
    /// target on the stack (`pushed` counts them); false when a cycle is cut.
    private func expand(_ schema: Located, into view: inout SchemaView, pushed: inout Int) -> Bool {
        switch schema.value {
        case .bool(false):
            view.refusesEverything = true
            return true
        case .object: break
        default: return true
        }
        if let reference = schema.member("$ref")?.string {
            switch enter(reference, at: schema.location) {
            case .entered(let target):
                pushed += 1
                guard expand(target, into: &view, pushed: &pushed) else { return false }
            case .unresolved: break
            case .cut: return false
            }
            guard version.readsKeywordsBesideReferences else { return true }
        }
        view.parts.append(schema)
        for member in schema.member("allOf")?.elements ?? [] {
            guard expand(member, into: &view, pushed: &pushed) else { return false }
        }
        return true
    }

    private func generate(_ view: SchemaView, variation: Int) -> JSONValue? {
        count += 1
        guard count <= Self.valueLimit else {
            if !stoppedGrowing, let place = view.parts.first {
                report.warning(
                    at: place.location,
                    "the generated body would hold more than \(Self.valueLimit) values; it stops growing here")
            }
            stoppedGrowing = true
            cutFloor = -1
            return nil
        }
        if view.refusesEverything || view.parts.isEmpty { return view.refusesEverything ? .null : .object([]) }
        if let constant = view.first("const") { return constant.value }
        if let example = validExample(view) { return example }
        if let fallback = view.first("default"), validator.isValid(fallback.value, against: view.parts) {
            return fallback.value
        }
        if case .array(let options)? = view.first("enum")?.value, !options.isEmpty {
            let start = variation % options.count
            let ordered = Array(options[start...] + options[..<start])
            return ordered.first { validator.isValid($0, against: view.parts) } ?? ordered[0]
        }
        let value: JSONValue?
        if let choice = view.nextChoice {
            value = generate(choosingFrom: choice, in: view, variation: variation)
        } else {
            let types = view.types
            switch types?.first(where: { $0 != "null" }) ?? types?.first ?? Self.inferredType(view) {
            case "object": value = generateObject(view, variation: variation)
            case "array": value = generateArray(view, variation: variation)
            case "string": value = .string(generateString(view, variation: variation))
            case "integer": value = generateInteger(view, variation: variation)
            case "number": value = generateNumber(view, variation: variation)
            case "boolean": value = .bool(variation % 2 == 0)
            case "null": value = .null
            default: value = .object([])
            }
        }
        if let value { checkLocally(value, against: view) }
        return value
    }

    /// Warns where a value made cannot meet its schema (bounds that exclude one another, a pattern not
    /// followed, a cycle cut on a required property). Each value is checked against its own keywords as it is
    /// made, its items and properties as they are made, so a body is checked once, part by part.
    private func checkLocally(_ value: JSONValue, against view: SchemaView) {
        for part in view.parts {
            guard let problem = validator.localProblem(in: value, against: part) else { continue }
            report.warning(
                at: part.location,
                "the value generated for this schema does not validate against it (\(problem)); edit the body file")
            return
        }
    }

    /// A type the keywords imply where no `type` is given: `properties` an object, `items` an array, …
    private static func inferredType(_ view: SchemaView) -> String? {
        let keys = Set(
            view.parts.flatMap { part -> [String] in
                guard case .object(let members) = part.value else { return [] }
                return members.map(\.key)
            })
        if !keys.isDisjoint(with: [
            "properties", "additionalProperties", "required", "minProperties", "maxProperties", "patternProperties",
        ]) {
            return "object"
        }
        if !keys.isDisjoint(with: ["items", "prefixItems", "minItems", "maxItems", "uniqueItems"]) { return "array" }
        if case .string(let format)? = view.first("format")?.value {
            if ["int32", "int64"].contains(format) { return "integer" }
            if ["float", "double"].contains(format) { return "number" }
            return "string"
        }
        if !keys.isDisjoint(with: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]) {
            return "number"
        }
        if !keys.isDisjoint(with: ["minLength", "maxLength", "pattern"]) { return "string" }
        return nil
    }

    /// A part's `example` (or 3.1's first `examples` entry) when it is valid; one that is not is passed over
    /// with a warning.
    private func validExample(_ view: SchemaView) -> JSONValue? {
        guard let example = Self.example(in: view.parts) else { return nil }
        for part in view.parts {
            if let problem = validator.problem(in: example.value, against: part) {
                report.warning(
                    at: example.location,
                    "this example does not validate against its schema (\(problem)); a value is generated instead")
                return nil
            }
        }
        return example.value
    }

    /// The first `example`, or 3.1's first `examples` entry, of `schemas`.
    static func example(in schemas: [Located]) -> Located? {
        for schema in schemas {
            if let example = schema.member("example") { return example }
            if let first = schema.member("examples")?.elements.first { return first }
        }
        return nil
    }

    /// The value of the first branch of an `anyOf`; of a `oneOf`, the first branch whose value no other
    /// branch accepts (a `oneOf` value must match one branch only), else the first branch's value. A value
    /// made from a branch meets that branch (what it cannot meet is reported as it is made).
    private func generate(choosingFrom choice: Located, in view: SchemaView, variation: Int) -> JSONValue? {
        var fallback: JSONValue?
        let branches = choice.elements
        for (index, branch) in branches.enumerated() {
            var branchView = view
            branchView.chosen.insert(choice.location)
            var pushed = 0
            defer { stack.removeLast(pushed) }
            guard expand(branch, into: &branchView, pushed: &pushed),
                let candidate = generate(branchView, variation: variation)
            else { continue }
            let value = discriminated(candidate, branch: branch, in: view)
            let exclusive =
                choice.location.tokens.last != "oneOf"
                || branches.indices.allSatisfy {
                    $0 == index || validator.problem(in: value, against: branches[$0]) != nil
                }
            if exclusive { return value }
            if fallback == nil { fallback = value }
        }
        if fallback != nil {
            report.warning(
                at: choice.location,
                "every value generated from these oneOf schemas also matches another of them; the first is written")
        }
        return fallback
    }

    /// The value with its discriminator property naming the branch (by `mapping`, else by the referenced
    /// schema's name), when that keeps it valid.
    private func discriminated(_ value: JSONValue, branch: Located, in view: SchemaView) -> JSONValue {
        guard let discriminator = view.first("discriminator"),
            let property = discriminator.member("propertyName")?.string,
            case .object(var members) = value, let reference = branch.member("$ref")?.string
        else { return value }
        var name = String(reference.split(separator: "/").last ?? "")
        for (key, target) in discriminator.member("mapping")?.members ?? [] where target.string == reference {
            name = key
            break
        }
        members.removeAll { $0.key == property }
        members.insert(JSONMember(key: property, value: .string(name)), at: 0)
        let named = JSONValue.object(members)
        return validator.isValid(named, against: [branch]) ? named : value
    }

    private func generateObject(_ view: SchemaView, variation: Int) -> JSONValue {
        let required = view.required
        var members: [JSONMember] = []
        for (name, schemas) in view.properties {
            let isRequired = required.contains(name)
            if !isRequired, schemas.contains(where: { $0.value.member("writeOnly") == .bool(true) }) { continue }
            if let value = generate(schemas, variation: variation) {
                members.append(JSONMember(key: name, value: value))
            } else if isRequired {
                members.append(JSONMember(key: name, value: .null))
            }
        }
        let additional = view.additionalProperties
        func additionalValue() -> JSONValue {
            additional.schemas.isEmpty ? .string("string") : generate(additional.schemas, variation: variation) ?? .null
        }
        for name in required where !members.contains(where: { $0.key == name }) {
            members.append(JSONMember(key: name, value: additionalValue()))
        }
        if let minimum = view.largest("minProperties"), !additional.refused {
            var number = 1
            while members.count < minimum, count < Self.valueLimit {
                let name = "property\(number)"
                number += 1
                if !members.contains(where: { $0.key == name }) {
                    members.append(JSONMember(key: name, value: additionalValue()))
                }
            }
        }
        if let maximum = view.smallest("maxProperties") {
            while members.count > maximum, let optional = members.lastIndex(where: { !required.contains($0.key) }) {
                members.remove(at: optional)
            }
        }
        return .object(members)
    }

    private func generateArray(_ view: SchemaView, variation: Int) -> JSONValue {
        let prefix =
            view.parts.lazy.map { SchemaKeywords.prefixItems($0, version: self.version) }.first { !$0.isEmpty } ?? []
        let itemSchemas = view.itemSchemas
        var itemCount = max(view.largest("minItems") ?? 0, 1, prefix.count)
        if let maximum = view.smallest("maxItems") { itemCount = min(itemCount, maximum) }
        if view.refusesMoreItems { itemCount = min(itemCount, prefix.count) }
        let unique = view.anyTrue("uniqueItems")
        var items: [JSONValue] = []
        for index in 0..<max(itemCount, 0) {
            let schemas = index < prefix.count ? [prefix[index]] : itemSchemas
            guard let item = generate(schemas, variation: unique ? index : variation) else { return .array([]) }
            items.append(item)
        }
        return .array(items)
    }

    private func generateString(_ view: SchemaView, variation: Int) -> String {
        let minimum = min(view.largest("minLength") ?? 0, Self.longestString)
        let maximum = view.smallest("maxLength")
        if let pattern = view.first("pattern"), let text = pattern.string {
            if let sample = PatternSampler(text)?.sample(
                minimumLength: minimum, maximumLength: maximum, variation: variation)
            {
                return sample
            }
            report.warning(
                at: pattern.location,
                "the pattern '\(text)' is beyond what the import follows (literals, classes, groups, counts); the generated string may not match it"
            )
        }
        if let format = view.first("format")?.string, let text = StringFormats.example(of: format, variation: variation)
        {
            let length = text.unicodeScalars.count
            if length >= minimum, length <= maximum ?? length { return text }
        }
        var text = variation == 0 ? "string" : "string\(variation + 1)"
        if text.count < minimum {
            let letters = Array(text)
            text = String((0..<minimum).map { letters[$0 % letters.count] })
        }
        if let maximum, text.count > maximum { text = String(text.prefix(maximum)) }
        return text
    }

    private func generateInteger(_ view: SchemaView, variation: Int) -> JSONValue {
        var bounds = view.numberBounds
        if view.first("format")?.string == "int32" {
            var int32 = NumberBounds(.null)
            int32.lower = .init(value: Double(Int32.min), exclusive: false)
            int32.upper = .init(value: Double(Int32.max), exclusive: false)
            bounds.narrow(to: int32)
        }
        let limit = 9.0e15
        var low = -limit, high = limit
        if let lower = bounds.lower {
            low = max(low, lower.exclusive ? lower.value.rounded(.down) + 1 : lower.value.rounded(.up))
        }
        if let upper = bounds.upper {
            high = min(high, upper.exclusive ? upper.value.rounded(.up) - 1 : upper.value.rounded(.down))
        }
        var step = 1.0
        if let multiple = view.first("multipleOf")?.value.numberValue, multiple >= 1, multiple < limit,
            multiple.rounded() == multiple
        {
            step = multiple
        }
        // 0 where it is allowed, else the bound nearest to it, moved onto a multiple of the step inside the range.
        var value = low > 0 ? (low / step).rounded(.up) * step : high < 0 ? (high / step).rounded(.down) * step : 0
        let next = value + Double(variation) * step
        if variation > 0 { value = next <= high ? next : max(low, value - Double(variation) * step) }
        return abs(value) < limit ? .integer(Int64(value)) : .real(value)
    }

    private func generateNumber(_ view: SchemaView, variation: Int) -> JSONValue {
        let bounds = view.numberBounds
        func allowed(_ value: Double) -> Bool {
            if let lower = bounds.lower, value < lower.value || (lower.exclusive && value == lower.value) {
                return false
            }
            if let upper = bounds.upper, value > upper.value || (upper.exclusive && value == upper.value) {
                return false
            }
            return true
        }
        var value: Double
        if let step = view.first("multipleOf")?.value.numberValue, step > 0 {
            // The multiple nearest to 0 in range whose quotient is exact (0.3 / 0.1 is not 3 in binary).
            let start =
                allowed(0)
                ? 0
                : bounds.lower.map { ($0.value / step).rounded(.up) } ?? bounds.upper.map {
                    ($0.value / step).rounded(.down)
                } ?? 0
            let direction: Double = bounds.lower == nil && !allowed(0) ? -1 : 1
            value = start * step
            for offset in 0..<64 {
                let factor = start + direction * Double(offset + variation)
                let candidate = factor * step
                if allowed(candidate), candidate / step == factor {
                    value = candidate
                    break
                }
            }
        } else if allowed(Double(variation)) {
            value = Double(variation)
        } else if let lower = bounds.lower {
            value = lower.exclusive ? bounds.upper.map { (lower.value + $0.value) / 2 } ?? lower.value + 1 : lower.value
            if variation > 0, allowed(value + Double(variation)) { value += Double(variation) }
        } else {
            let upper = bounds.upper!
            value = upper.exclusive ? upper.value - 1 : upper.value
            if variation > 0, allowed(value - Double(variation)) { value -= Double(variation) }
        }
        return value.rounded() == value && abs(value) < 9.0e15 ? .integer(Int64(value)) : .real(value)
    }
}
