extension RequestModel {
    /// The parts of the request object templates and scripts see (doc/templates.md, doc/scripts.md), by name.
    public static let partNames = [
        "method", "path", "query", "body", "headers", "pathParameters", "pathComponents", "queryParameters", "formParameters", "bodyJSON",
    ]

    /// One part of the request as templates and scripts see it, built only when asked: `query` is the raw
    /// query (null without one); names given once are a string and given more than once a list of their
    /// values, in order (header names in lower case); `pathComponents` starts with `/`; `formParameters`
    /// only for a `application/x-www-form-urlencoded` body; `body` and `bodyJSON` null for a body longer than
    /// was kept. Nil for a name that is no part.
    public func part(_ name: String) -> JSONValue? {
        switch name {
        case "method": return .string(request.method)
        case "path": return .string(request.path)
        case "query": return request.rawQuery.isEmpty ? .null : .string(request.rawQuery)
        case "body": return bodyTooLarge ? .null : bodyText.map(JSONValue.string) ?? .null
        case "bodyJSON": return bodyTooLarge ? .null : bodyJSON ?? .null
        case "pathComponents": return .array([.string("/")] + request.segments.segments.map(JSONValue.string))
        case "headers": return Self.grouped(headers.map { ($0.name.lowercased(), $0.value) })
        case "pathParameters": return Self.grouped(pathParameters.map { ($0.name, $0.value) })
        case "queryParameters": return Self.grouped(queryParameters.fields.map { ($0.name, $0.value) })
        case "formParameters": return Self.grouped(hasFormBody ? formParameters.fields.map { ($0.name, $0.value) } : [])
        default: return nil
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

    /// An object of each name's value (a list of them for a repeated name), in order of first appearance.
    /// Names are looked up among those seen so far (through an index only when there are many), and a list
    /// is made only for a name that repeats.
    static func grouped(_ pairs: [(String, String)]) -> JSONValue {
        var names: [String] = [], firsts: [String] = []
        names.reserveCapacity(pairs.count)
        firsts.reserveCapacity(pairs.count)
        var repeats: [Int: [String]] = [:]
        var index: [String: Int]? = pairs.count > 16 ? [:] : nil
        for (name, value) in pairs {
            guard let known = index != nil ? index![name] : names.firstIndex(of: name) else {
                index?[name] = names.count
                names.append(name)
                firsts.append(value)
                continue
            }
            repeats[known, default: [firsts[known]]].append(value)
        }
        return .object(names.indices.map { position in
            JSONMember(key: names[position], value: repeats[position].map { .array($0.map(JSONValue.string)) } ?? .string(firsts[position]))
        })
    }
}
