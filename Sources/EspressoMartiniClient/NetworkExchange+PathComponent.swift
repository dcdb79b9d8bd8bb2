extension NetworkExchange {
    /// One segment of a route. A string literal reads as the tree's folder names do: `"*"` is `anySegment`,
    /// `"**"` `remainingSegments`, `"{id}"` and `":id"` `parameter("id")`, a name with percent-escapes
    /// (`"%2A"`) the `literal` it decodes to, anything else a `literal` as written.
    public enum PathComponent: Sendable, Hashable, ExpressibleByStringLiteral {
        /// Exactly this segment (after percent-decoding), whatever it looks like: written as a folder name
        /// with percent-escapes where it would otherwise read as a pattern or a method (`%2A`, `%47ET`).
        case literal(String)
        /// Any one segment, captured as the path parameter `name` (`Condition.path`, templates).
        case parameter(String)
        /// Any one segment (`*`).
        case anySegment
        /// One or more remaining segments (`**`); only ever last.
        case remainingSegments

        public init(stringLiteral value: String) {
            self.init(reading: value)
        }

        /// `value` read as a folder name reads (the string literal's rules).
        public init(reading value: String) {
            if value == "*" {
                self = .anySegment
            } else if value == "**" {
                self = .remainingSegments
            } else if value.count > 2, value.hasPrefix("{"), value.hasSuffix("}") {
                self = .parameter(String(value.dropFirst().dropLast()))
            } else if value.count > 1, value.hasPrefix(":") {
                self = .parameter(String(value.dropFirst()))
            } else {
                self = .literal(FolderName.percentDecoded(value) ?? value)
            }
        }

        /// The folder name that stands for it in a tree; throws for a segment no request can have.
        func folderName(atRoot: Bool) throws -> String {
            switch self {
            case .anySegment: return "*"
            case .remainingSegments: return "**"
            case .parameter(let name):
                guard !name.isEmpty, !name.contains("/"), !name.contains("}") else {
                    throw MockServerError.invalidArgument(
                        "the path parameter name \(JSONValue.string(name).jsonText()) cannot be a folder name; "
                            + "use letters, digits and '_'")
                }
                return "{\(name)}"
            case .literal(let text):
                if let problem = FolderName.problem(withSegment: text) {
                    throw MockServerError.invalidArgument("no request path has \(problem)")
                }
                return FolderName.escaped(segment: text, atRoot: atRoot)
            }
        }

        /// The parameter's name, for `parameter`.
        var parameterName: String? {
            if case .parameter(let name) = self { name } else { nil }
        }

        /// Whether it matches exactly the requests `other` matches: `{id}`, `{uid}` and `*` alike.
        func matchesSameSegments(as other: PathComponent) -> Bool {
            switch (self, other) {
            case (.literal(let one), .literal(let two)): one == two
            case (.parameter, .parameter), (.parameter, .anySegment), (.anySegment, .parameter),
                (.anySegment, .anySegment), (.remainingSegments, .remainingSegments):
                true
            default: false
            }
        }
    }
}

extension NetworkExchange.PathComponent: CustomStringConvertible {
    /// As a route shows it: `users`, `{id}`, `*`, `**`.
    public var description: String {
        switch self {
        case .literal(let text): text
        case .parameter(let name): "{\(name)}"
        case .anySegment: "*"
        case .remainingSegments: "**"
        }
    }
}
