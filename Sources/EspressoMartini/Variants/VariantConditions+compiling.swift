extension VariantConditions {
    static let keys = [
        "query", "headers", "cookies", "path", "body", "body_base64", "json", "form", "multipart", "graphql",
    ]
    static let graphQLKeys = ["operation", "type"]
    /// The keys of a part object in `multipart`; an object with none of them is a matcher on the part's text.
    static let partKeys = ["filename", "content_type", "body", "body_base64"]

    /// Compiles a variant's `when` object found at `path` of `file`: every matcher, regular expression
    /// and JSON Pointer once. `pathCaptures` are the names the route captures (`{id}`, `:id`); a `path`
    /// condition on another name is an error. Reports every problem with its position; nil when there is one.
    public static func compile(
        _ value: JSONValue, at path: [String], pathCaptures: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> VariantConditions? {
        guard case .object(let members) = value else {
            diagnostics.error(
                file, map.value(path),
                "'when' must be an object of conditions such as {\"query\": {\"page\": \"2\"}}, found \(value.kindName)"
            )
            return nil
        }
        var compiler = Compiler(file: file, map: map, pathCaptures: pathCaptures)
        for member in members {
            compiler.compile(member, at: path + [member.key])
        }
        diagnostics.append(contentsOf: compiler.diagnostics)
        return compiler.diagnostics.hasErrors ? nil : VariantConditions(compiler.conditions)
    }

    private struct Compiler<Positions: JSONPositions> {
        let file: String
        let map: Positions
        let pathCaptures: [String]
        var conditions: [VariantCondition] = []
        var diagnostics = Diagnostics()

        mutating func compile(_ member: JSONMember, at path: [String]) {
            switch member.key {
            case "query":
                forEachName(in: member, at: path, of: "query parameter") { name, matcher in .query(name: name, matcher)
                }
            case "headers":
                forEachName(in: member, at: path, of: "header") { name, matcher in
                    .header(lowercasedName: name.lowercased(), matcher)
                }
            case "cookies":
                forEachName(in: member, at: path, of: "cookie") { name, matcher in .cookie(name: name, matcher) }
            case "form":
                forEachName(in: member, at: path, of: "form field") { name, matcher in .form(name: name, matcher) }
            case "path":
                forEachName(in: member, at: path, of: "path parameter", checkingCaptures: true) { name, matcher in
                    .path(name: name, matcher)
                }
            case "body":
                if let matcher = matcher(member.value, at: path, in: .text) { conditions.append(.body(matcher)) }
            case "body_base64":
                if let matcher = byteMatcher(member.value, key: member.key, at: path) {
                    conditions.append(.bodyBytes(matcher))
                }
            case "multipart":
                compileMultipart(member, at: path)
            case "json":
                compileJSON(member.value, at: path)
            case "graphql":
                compileGraphQL(member.value, at: path)
            default:
                var message =
                    "unknown condition '\(member.key)'; 'when' takes \(VariantConditions.list(VariantConditions.keys))"
                if let suggestion = Suggestion.closest(to: member.key, among: VariantConditions.keys) {
                    message += "; did you mean '\(suggestion)'?"
                }
                diagnostics.error(file, map.key(path), message)
            }
        }

        /// `{NAME: MATCHER}`: one condition per name, in file order.
        private mutating func forEachName(
            in member: JSONMember, at path: [String], of kind: String,
            checkingCaptures: Bool = false,
            _ condition: (String, Matcher) -> VariantCondition
        ) {
            guard case .object(let entries) = member.value else {
                diagnostics.error(
                    file, map.value(path),
                    "'\(member.key)' must be an object of \(kind) names to matchers, such as {\"name\": \"value\"}, found \(member.value.kindName)"
                )
                return
            }
            for entry in entries {
                let entryPath = path + [entry.key]
                if checkingCaptures, !isCaptured(entry.key, at: entryPath) { continue }
                if let matcher = matcher(entry.value, at: entryPath, in: .text) {
                    conditions.append(condition(entry.key, matcher))
                }
            }
        }

        /// Whether the route captures `name`; reports it when not.
        private mutating func isCaptured(_ name: String, at path: [String]) -> Bool {
            guard !pathCaptures.contains(name) else { return true }
            let captures =
                pathCaptures.isEmpty
                ? "it captures nothing; name a folder {\(name)} or :\(name) to capture it"
                : "it captures \(VariantConditions.list(pathCaptures))"
            diagnostics.error(file, map.key(path), "the route does not capture '\(name)': \(captures)")
            return false
        }

        private mutating func compileJSON(_ value: JSONValue, at path: [String]) {
            guard case .object(let entries) = value else {
                diagnostics.error(
                    file, map.value(path),
                    "'json' must be an object of JSON Pointers to matchers, such as {\"/user/name\": \"Ada\"}, found \(value.kindName)"
                )
                return
            }
            for entry in entries {
                let entryPath = path + [entry.key]
                let pointer: JSONPointer
                do {
                    pointer = try JSONPointer(parsing: entry.key)
                } catch {
                    diagnostics.error(file, map.key(entryPath), error.message)
                    continue
                }
                if let matcher = matcher(entry.value, at: entryPath, in: .json) {
                    conditions.append(.json(pointer, matcher))
                }
            }
        }

        /// `{NAME: MATCHER}` on the parts' text, or `{NAME: {"filename": …, "content_type": …, "body": …,
        /// "body_base64": …}}` on one part's.
        private mutating func compileMultipart(_ member: JSONMember, at path: [String]) {
            guard case .object(let entries) = member.value else {
                diagnostics.error(
                    file, map.value(path),
                    "'multipart' must be an object of part names to matchers or parts, such as {\"note\": \"text\", \"photo\": {\"filename\": \"a.png\"}}, found \(member.value.kindName)"
                )
                return
            }
            for entry in entries {
                let entryPath = path + [entry.key]
                // A part object has a part key, or no matcher key (a misspelt part key is reported as such).
                guard case .object(let keys) = entry.value, !keys.isEmpty,
                    keys.contains(where: { VariantConditions.partKeys.contains($0.key) })
                        || !keys.contains(where: { Matcher.keys.contains($0.key) })
                else {
                    if let matcher = matcher(entry.value, at: entryPath, in: .text) {
                        conditions.append(.multipart(name: entry.key, .content(matcher)))
                    }
                    continue
                }
                var fields = PartMatcher.Fields()
                var failed = false
                for key in keys {
                    let keyPath = entryPath + [key.key]
                    switch key.key {
                    case "filename": fields.filename = matcher(key.value, at: keyPath, in: .text)
                    case "content_type": fields.contentType = matcher(key.value, at: keyPath, in: .text)
                    case "body": fields.body = matcher(key.value, at: keyPath, in: .text)
                    case "body_base64": fields.bodyBytes = byteMatcher(key.value, key: key.key, at: keyPath)
                    default:
                        var message =
                            "unknown key '\(key.key)' in a part; a part takes \(VariantConditions.list(VariantConditions.partKeys)), or is one matcher on its text"
                        if let suggestion = Suggestion.closest(to: key.key, among: VariantConditions.partKeys) {
                            message += "; did you mean '\(suggestion)'?"
                        }
                        diagnostics.error(file, map.key(keyPath), message)
                        failed = true
                    }
                }
                if !failed { conditions.append(.multipart(name: entry.key, .part(fields))) }
            }
        }

        private mutating func compileGraphQL(_ value: JSONValue, at path: [String]) {
            guard case .object(let entries) = value else {
                diagnostics.error(
                    file, map.value(path),
                    "'graphql' must be an object such as {\"operation\": \"GetUser\", \"type\": \"query\"}, found \(value.kindName)"
                )
                return
            }
            for entry in entries {
                let entryPath = path + [entry.key]
                switch entry.key {
                case "operation":
                    if let matcher = matcher(entry.value, at: entryPath, in: .text) {
                        conditions.append(.graphQLOperation(matcher))
                    }
                case "type":
                    guard case .string(let text) = entry.value,
                        let type = GraphQLOperation.OperationType(rawValue: text)
                    else {
                        let found =
                            if case .string(let text) = entry.value { Matcher.quoted(text) } else {
                                entry.value.kindName
                            }
                        diagnostics.error(
                            file, map.value(entryPath),
                            "'type' must be \"query\", \"mutation\" or \"subscription\", found \(found)")
                        continue
                    }
                    conditions.append(.graphQLType(type))
                default:
                    var message = "unknown key '\(entry.key)' in 'graphql'; it takes 'operation' and 'type'"
                    if let suggestion = Suggestion.closest(to: entry.key, among: VariantConditions.graphQLKeys) {
                        message += "; did you mean '\(suggestion)'?"
                    }
                    diagnostics.error(file, map.key(entryPath), message)
                }
            }
        }

        private mutating func matcher(_ value: JSONValue, at path: [String], in context: Matcher.Context) -> Matcher? {
            Matcher.compile(value, at: path, in: context, file: file, map: map, into: &diagnostics)
        }

        private mutating func byteMatcher(_ value: JSONValue, key: String, at path: [String]) -> ByteMatcher? {
            ByteMatcher.compile(value, key: key, at: path, file: file, map: map, into: &diagnostics)
        }
    }

    /// `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`.
    static func list(_ words: [String]) -> String {
        let items = words.map { "'\($0)'" }
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
