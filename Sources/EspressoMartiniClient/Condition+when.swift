extension Condition {
    /// The `when` object that means all of `conditions` (doc/variants.md, Conditions), as `JSONSerialization`
    /// takes it: what a variant's `when`, and the `when` of `count(method:path:when:)` and `requests`, hold.
    /// Conditions of one kind share its key (`.json("/a", …)` and `.json("/b", …)` make one `json` object).
    /// Throws `MockServerError.invalidArgument` for what the format cannot say: a name (or pointer) given
    /// twice in one kind, two `.body` conditions, a value other than a string compared outside `.json`, a JSON
    /// Pointer that is neither `""` nor starts with `/`, an empty name, a `.graphQL` with neither part.
    public static func whenObject(_ conditions: [Condition]) throws -> [String: Any] {
        guard case .object(let members) = try whenJSON(conditions) else { return [:] }
        return members.mapValues(\.foundationObject)
    }

    /// `whenObject(_:)` as a `JSONValue` object.
    public static func whenJSON(_ conditions: [Condition]) throws -> JSONValue {
        var named: [String: [String: JSONValue]] = [:]
        var when: [String: JSONValue] = [:]
        var graphQL: [String: JSONValue] = [:]
        for condition in conditions {
            try condition.check()
            switch condition {
            case .query(let name, let matcher), .header(let name, let matcher), .cookie(let name, let matcher),
                .path(let name, let matcher), .json(let name, let matcher), .form(let name, let matcher):
                let key = condition.key
                let clash = named[key]?.keys.first { existing in
                    key == "headers" ? existing.lowercased() == name.lowercased() : existing == name
                }
                if let clash {
                    throw MockServerError.invalidArgument(
                        "\(condition.kindName) \(JSONValue.string(clash).jsonText()) is given two conditions; "
                            + "a 'when' holds one matcher per \(key == "json" ? "pointer" : "name"): keep one of them")
                }
                named[key, default: [:]][name] = matcher.json
            case .body(let matcher):
                guard when["body"] == nil else {
                    throw MockServerError.invalidArgument(
                        "the body is given two conditions; a 'when' holds one matcher for the body: keep one of them")
                }
                when["body"] = matcher.json
            case .graphQL(let operation, let type):
                if let operation {
                    guard graphQL["operation"] == nil else {
                        throw MockServerError.invalidArgument(
                            "the GraphQL operation is given two conditions; keep one of them")
                    }
                    graphQL["operation"] = operation.json
                }
                if let type {
                    guard graphQL["type"] == nil else {
                        throw MockServerError.invalidArgument(
                            "the GraphQL operation type is given two conditions; keep one of them")
                    }
                    graphQL["type"] = .string(type.rawValue)
                }
            }
        }
        for (key, members) in named { when[key] = .object(members) }
        if !graphQL.isEmpty { when["graphql"] = .object(graphQL) }
        return .object(when)
    }

    /// The `when` key this kind of condition stands under.
    var key: String {
        switch self {
        case .query: "query"
        case .header: "headers"
        case .cookie: "cookies"
        case .path: "path"
        case .body: "body"
        case .json: "json"
        case .form: "form"
        case .graphQL: "graphql"
        }
    }

    /// How messages name the kind: `query parameter`, `header`, `JSON Pointer`.
    var kindName: String {
        switch self {
        case .query: "query parameter"
        case .header: "header"
        case .cookie: "cookie"
        case .path: "path parameter"
        case .body: "body"
        case .json: "JSON Pointer"
        case .form: "form field"
        case .graphQL: "GraphQL operation"
        }
    }

    /// Throws what the server would refuse, in the words of this API.
    private func check() throws {
        switch self {
        case .query(let name, let matcher), .header(let name, let matcher), .cookie(let name, let matcher),
            .path(let name, let matcher), .form(let name, let matcher):
            guard !name.isEmpty else {
                throw MockServerError.invalidArgument("\(self): the \(kindName) needs a name")
            }
            try Self.checkText(matcher, in: self)
        case .body(let matcher):
            try Self.checkText(matcher, in: self)
        case .json(let pointer, _):
            guard pointer.isEmpty || pointer.hasPrefix("/") else {
                throw MockServerError.invalidArgument(
                    "\(self): \(JSONValue.string(pointer).jsonText()) is not a JSON Pointer; it must be \"\" (the "
                        + "whole document) or start with '/', as in \(JSONValue.string("/" + pointer).jsonText())")
            }
        case .graphQL(let operation, let type):
            guard operation != nil || type != nil else {
                throw MockServerError.invalidArgument(
                    "Condition.graphQL needs an operation, a type or both: .graphQL(operation: \"GetUser\")")
            }
            if let operation { try Self.checkText(operation, in: self) }
        }
    }

    /// Outside `json` the request's values are text: `.equals(2)` could never hold.
    private static func checkText(_ matcher: Matcher, in condition: Condition) throws {
        guard case .equals(let value) = matcher, value.stringValue == nil else { return }
        let text: String
        switch value {
        case .integer(let integer): text = String(integer)
        case .number(let number): text = number.description
        case .bool(let bool): text = bool ? "true" : "false"
        default: text = value.jsonText()
        }
        throw MockServerError.invalidArgument(
            "\(condition): a \(condition.kindName) is text, so it can only equal a string; "
                + "write .equals(\(JSONValue.string(text).jsonText()))")
    }
}
