/// One path component of a route, as a folder name spells it.
public enum RouteSegment: Sendable, Hashable {
    /// Matches exactly this text.
    case literal(String)
    /// A folder name with percent-escapes (`%2A`, `%7Bid%7D`, `%47ET`) that decodes: matches exactly the
    /// decoded text (`literalText`), never as a pattern. Only the folder name is kept, so that a segment stays
    /// as small as a literal's (the decoded text is needed at load and for messages only).
    case encodedLiteral(spelling: String)
    /// `{name}` or `:name`, as spelled: matches any one segment (the name is for the reader).
    case parameter(spelling: String)
    /// `*`: matches any one segment.
    case wildcard
    /// `**`: matches one or more remaining segments; only ever last.
    case catchAll

    /// The segment a folder name stands for. A name with a `%` that `FolderNameEscapes` cannot decode stays a
    /// plain literal here; the loader refuses such a folder.
    public init(folderName name: String) {
        if name.utf8.contains(UInt8(ascii: "%")), case .decoded? = FolderNameEscapes.decode(name) {
            self = .encodedLiteral(spelling: name)
        } else if name == "*" {
            self = .wildcard
        } else if name == "**" {
            self = .catchAll
        } else if (name.utf8.count > 2 && name.hasPrefix("{") && name.hasSuffix("}"))
            || (name.utf8.count > 1 && name.hasPrefix(":"))
        {
            self = .parameter(spelling: name)
        } else {
            self = .literal(name)
        }
    }

    /// The folder name, as the user spelled it.
    public var spelling: String {
        switch self {
        case .literal(let text): text
        case .encodedLiteral(let spelling): spelling
        case .parameter(let spelling): spelling
        case .wildcard: "*"
        case .catchAll: "**"
        }
    }

    /// The text a literal segment matches; nil for patterns.
    public var literalText: String? {
        switch self {
        case .literal(let text): text
        case .encodedLiteral(let spelling):
            if case .decoded(let text)? = FolderNameEscapes.decode(spelling) { text } else { spelling }
        case .parameter, .wildcard, .catchAll: nil
        }
    }

    /// The name a `{name}` or `:name` segment captures under; nil for other segments.
    public var parameterName: String? {
        guard case .parameter(let spelling) = self else { return nil }
        // On its bytes: `:` and the braces are ASCII (a request's path parameters are read per request).
        let bytes = spelling.utf8
        return String(Substring(bytes.first == UInt8(ascii: ":") ? bytes.dropFirst() : bytes.dropFirst().dropLast()))
    }

    /// `{id}`, `:id` and `*` all match any one segment; `%2A` and a folder that could be named `*` as a
    /// literal both match only `*`.
    func matchesSameRequests(as other: RouteSegment) -> Bool {
        switch (self, other) {
        case (.literal, .literal), (.literal, .encodedLiteral), (.encodedLiteral, .literal),
            (.encodedLiteral, .encodedLiteral):
            literalText == other.literalText
        case (.parameter, .parameter), (.parameter, .wildcard), (.wildcard, .parameter), (.wildcard, .wildcard): true
        case (.catchAll, .catchAll): true
        default: false
        }
    }

    /// Hashes what `matchesSameRequests` compares.
    func hashMatchedRequests(into hasher: inout Hasher) {
        switch self {
        case .literal, .encodedLiteral:
            hasher.combine(0)
            hasher.combine(literalText)
        case .parameter, .wildcard: hasher.combine(1)
        case .catchAll: hasher.combine(2)
        }
    }
}
