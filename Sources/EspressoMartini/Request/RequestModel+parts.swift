extension RequestModel {
    /// The parts of the request object templates and scripts see (doc/templates.md, doc/scripts.md), by name.
    public static let partNames = [
        "method", "path", "query", "body", "headers", "pathParameters", "pathComponents", "queryParameters",
        "formParameters", "bodyJSON",
    ]

    /// One part of the request as templates and scripts see it, built only when asked: `query` is the raw
    /// query (null without one); names given once are a string and given more than once a list of their
    /// values, in order (header names in lower case); `pathComponents` starts with `/`; `formParameters`
    /// only for a `application/x-www-form-urlencoded` body; `body` and `bodyJSON` null for a body longer than
    /// was kept. Nil for a name that is no part.
    public func part(_ name: String) -> JSONValue? {
        if let pairs = pairs(ofPart: name) {
            return .object(
                Self.grouped(pairs).map { group in
                    JSONMember(
                        key: group.name,
                        value: group.values.map { .array($0.map(JSONValue.string)) } ?? .string(group.first))
                })
        }
        switch name {
        case "method": return .string(request.method)
        case "path": return .string(request.path)
        case "query": return request.rawQuery.isEmpty ? .null : .string(request.rawQuery)
        case "body": return bodyTooLarge ? .null : bodyText.map(JSONValue.string) ?? .null
        case "bodyJSON": return bodyTooLarge ? .null : bodyJSON ?? .null
        case "pathComponents": return .array([.string("/")] + request.segments.segments.map(JSONValue.string))
        default: return nil
        }
    }

    /// `part(name)`'s compact JSON text appended to `output` (`null` for a name that is no part); an object of
    /// names is written straight from the request, without building its value (scripts read parts as text).
    public func writePart(_ name: String, to output: inout [UInt8]) {
        guard let pairs = pairs(ofPart: name) else {
            (part(name) ?? .null).write(to: &output)
            return
        }
        output.append(UInt8(ascii: "{"))
        if pairs.count < 2 {
            // One name cannot repeat: nothing to group.
            for (name, value) in pairs {
                JSONStringEscaping.appendQuoted(name, to: &output)
                output.append(UInt8(ascii: ":"))
                JSONStringEscaping.appendQuoted(value, to: &output)
            }
            output.append(UInt8(ascii: "}"))
            return
        }
        for (index, group) in Self.grouped(pairs).enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONStringEscaping.appendQuoted(group.name, to: &output)
            output.append(UInt8(ascii: ":"))
            guard let values = group.values else {
                JSONStringEscaping.appendQuoted(group.first, to: &output)
                continue
            }
            output.append(UInt8(ascii: "["))
            for (position, value) in values.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                JSONStringEscaping.appendQuoted(value, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(UInt8(ascii: "}"))
    }

    /// The names and values of a part that is an object of names (header names in lower case, form fields
    /// only for a form body); nil for another part.
    private func pairs(ofPart name: String) -> [(String, String)]? {
        switch name {
        case "headers": headers.map { ($0.name.lowercased(), $0.value) }
        case "pathParameters": pathParameters.map { ($0.name, $0.value) }
        case "queryParameters": queryParameters.fields.map { ($0.name, $0.value) }
        case "formParameters": hasFormBody ? formParameters.fields.map { ($0.name, $0.value) } : []
        default: nil
        }
    }

    /// One value of a part by its name (`headers` by a name in any case), without building the whole
    /// part: a string, a list for a name given more than once, nil for none.
    public func part(_ name: String, named member: String) -> JSONValue? {
        switch name {
        case "headers": return Self.oneOrMany(headerValues(member.lowercased()))
        case "pathParameters": return pathParameter(member).map(JSONValue.string)
        case "queryParameters": return Self.oneOrMany(queryValues(member))
        case "formParameters": return hasFormBody ? Self.oneOrMany(formValues(member)) : nil
        default: return part(name)?.descendant(at: [member])
        }
    }

    /// The body's media type, lower case, without parameters (`""` without a `Content-Type`).
    public var mediaType: String {
        ContentType.mediaType(of: headerValues("content-type").first ?? "")
    }

    private var hasFormBody: Bool { mediaType == "application/x-www-form-urlencoded" }

    /// Nothing for no value, a string for one, a list for several.
    static func oneOrMany(_ values: [String]) -> JSONValue? {
        switch values.count {
        case 0: nil
        case 1: .string(values[0])
        default: .array(values.map(JSONValue.string))
        }
    }

    /// Each name once, in order of first appearance, with its first value and, for a name that repeats,
    /// the list of all its values (an object of names gives such a name a list). Names are looked up among
    /// those seen so far (through an index only when there are many), and a list is made only for a name
    /// that repeats.
    static func grouped(_ pairs: [(String, String)]) -> [(name: String, first: String, values: [String]?)] {
        var groups: [(name: String, first: String, values: [String]?)] = []
        groups.reserveCapacity(pairs.count)
        var index: [String: Int]? = pairs.count > 16 ? [:] : nil
        for (name, value) in pairs {
            guard let known = index != nil ? index![name] : groups.firstIndex(where: { $0.name == name }) else {
                index?[name] = groups.count
                groups.append((name, value, nil))
                continue
            }
            if groups[known].values == nil { groups[known].values = [groups[known].first] }
            groups[known].values!.append(value)
        }
        return groups
    }
}
