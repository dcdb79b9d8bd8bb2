extension JournalFilter {
    /// What a `requests/count` or `requests/find` body may hold.
    static let bodyKeys = ["method", "path", "status", "unmatched", "when"]
    /// What `GET requests` takes in its query.
    static let queryKeys = ["method", "path", "status", "unmatched", "session"]
    /// How problems in a posted body name it: `request body:1:12: error: …`.
    public static let bodyName = "request body"

    /// Reads a `requests/count` or `requests/find` body, `{"method", "path", "status", "unmatched", "when"}`,
    /// every key optional (an empty body is `{}`). `when` is compiled as a variant's is, its `path`
    /// conditions reading the captures of `path`. Reports every problem with its line and column in the
    /// body, in the loader's words; no filter when there is one.
    public static func parse(
        body: [UInt8], parser: any JSONParser
    ) -> (filter: JournalFilter?, diagnostics: Diagnostics) {
        let (filter, _, diagnostics) = parse(body: body, parser: parser, verifying: false)
        return (filter, diagnostics)
    }

    /// Reads a `requests/verify` body: a filter as `requests/count` takes it, and `count`, the number of
    /// requests expected (at least one without it).
    public static func parse(
        verifyBody body: [UInt8], parser: any JSONParser
    ) -> (filter: JournalFilter?, expected: CountExpectation, diagnostics: Diagnostics) {
        let (filter, expected, diagnostics) = parse(body: body, parser: parser, verifying: true)
        return (filter, expected ?? .atLeast(1), diagnostics)
    }

    private static func parse(
        body: [UInt8], parser: any JSONParser, verifying: Bool
    ) -> (filter: JournalFilter?, expected: CountExpectation?, diagnostics: Diagnostics) {
        let keys = verifying ? bodyKeys + ["count"] : bodyKeys
        var expected: CountExpectation?
        var diagnostics = Diagnostics()
        let file = bodyName
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            return (JournalFilter(), nil, diagnostics)
        }
        guard
            let (members, map) = parser.object(
                body, file: file, into: &diagnostics,
                notAnObject: {
                    "the body must be a JSON object such as {\"method\": \"POST\", \"path\": \"/api/orders\"}, found \($0)"
                })
        else { return (nil, nil, diagnostics) }
        var filter = JournalFilter()
        for member in members where member.key != "when" {
            let at = map.value([member.key])
            func wrongType(_ expected: String) {
                diagnostics.error(file, at, "'\(member.key)' must be \(expected), found \(member.value.kindName)")
            }
            switch member.key {
            case "method":
                guard case .string(let method) = member.value else { wrongType("a method such as \"POST\""); continue }
                switch methodProblem(method) {
                case let problem?: diagnostics.error(file, at, problem)
                case nil: filter.method = method
                }
            case "path":
                guard case .string(let text) = member.value else {
                    wrongType("a route such as \"/api/orders/{id}\""); continue
                }
                switch route(text) {
                case .success(let pattern): filter.path = pattern
                case .failure(let problem): diagnostics.error(file, at, problem.message)
                }
            case "status":
                let text: String
                switch member.value {
                case .integer(let number): text = String(number)
                case .string(let spelled): text = spelled
                default: wrongType("a status such as 404 or a class such as \"4xx\""); continue
                }
                switch status(text) {
                case .success(let status): filter.status = status
                case .failure(let problem): diagnostics.error(file, at, problem.message)
                }
            case "unmatched":
                guard case .bool(let flag) = member.value else { wrongType("true or false"); continue }
                filter.unmatched = flag
            case "count" where verifying:
                expected = CountExpectation.read(member.value, file: file, map: map, into: &diagnostics)
            default:
                var message = "unknown key '\(member.key)'; the body takes \(VariantConditions.list(keys))"
                if let suggestion = Suggestion.closest(to: member.key, among: keys) {
                    message += "; did you mean '\(suggestion)'?"
                }
                diagnostics.error(file, map.key([member.key]), message)
            }
        }
        if let when = members.first(where: { $0.key == "when" })?.value {
            let captures = filter.path?.segments.compactMap(\.parameterName) ?? []
            filter.conditions = VariantConditions.compile(
                when, at: ["when"], pathCaptures: captures, file: file, map: map, into: &diagnostics)
        }
        return (diagnostics.hasErrors ? nil : filter, expected, diagnostics)
    }

    /// Reads the query of `GET requests`: `method`, `path`, `status`, `unmatched=true`, `session`.
    public static func parse(query: URLEncodedForm) -> Result<JournalFilter, Problem> {
        var filter = JournalFilter()
        for field in query.fields {
            let name = field.name, value = field.value
            switch name {
            case "method":
                if let problem = methodProblem(value) { return .failure(Problem(message: problem)) }
                filter.method = value
            case "path":
                switch route(value) {
                case .success(let pattern): filter.path = pattern
                case .failure(let problem): return .failure(problem)
                }
            case "status":
                switch status(value) {
                case .success(let status): filter.status = status
                case .failure(let problem): return .failure(problem)
                }
            case "unmatched":
                guard value == "true" || value == "false" else {
                    return .failure(Problem(message: "'unmatched' must be true or false, found '\(value)'"))
                }
                filter.unmatched = value == "true"
            case "session":
                filter.session = value
            default:
                var message = "unknown filter '\(name)'; requests takes \(VariantConditions.list(queryKeys))"
                if let suggestion = Suggestion.closest(to: name, among: queryKeys) {
                    message += "; did you mean '\(suggestion)'?"
                }
                message += "; conditions on headers, query or body go in the body of POST requests/find"
                return .failure(Problem(message: message))
            }
        }
        return .success(filter)
    }

    public struct Problem: Error, Sendable, Equatable {
        public let message: String
    }

    private static func methodProblem(_ method: String) -> String? {
        HeadersParser.isToken(method) ? nil : "'method' '\(method)' is not a method such as \"GET\" or \"POST\""
    }

    /// A route as a folder path spells it, refused where the loader would refuse its folders.
    static func route(_ text: String) -> Result<RoutePattern, Problem> {
        let pattern = RoutePattern(parsing: text)
        for (position, segment) in pattern.segments.enumerated() {
            if case .refused(let problem)? = FolderNameEscapes.decode(segment.spelling) {
                return .failure(Problem(message: problem))
            }
            if segment == .catchAll, position < pattern.segments.count - 1 {
                return .failure(
                    Problem(
                        message:
                            "'**' must be the last path component, but '\(text)' has '\(pattern.segments[position + 1].spelling)' after it"
                    ))
            }
        }
        return .success(pattern)
    }

    /// `404`, or `4xx` for a class (any case); 0 is the status a fault is journaled with.
    private static func status(_ text: String) -> Result<Status, Problem> {
        if let number = Int(text), number == 0 || (100...599).contains(number) { return .success(.exactly(number)) }
        if text.utf8.count == 3, let hundreds = Int(text.prefix(1)), (1...5).contains(hundreds),
            text.dropFirst().lowercased() == "xx"
        {
            return .success(.inClass(hundreds))
        }
        return .failure(
            Problem(
                message:
                    "'status' \(text) is not a status; give one from 100 to 599 (0 for a fault), or a class such as \"4xx\""
            ))
    }
}
