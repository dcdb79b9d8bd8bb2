/// One path component of a route, as a folder name spells it.
public enum RouteSegment: Sendable, Hashable {
    /// Matches exactly this text.
    case literal(String)
    /// `{name}` or `:name`: matches any one segment and names it.
    case parameter(name: String, spelling: String)
    /// `*`: matches any one segment.
    case wildcard
    /// `**`: matches one or more remaining segments; only ever last.
    case catchAll

    /// The segment a folder name stands for.
    public init(folderName name: String) {
        if name == "*" {
            self = .wildcard
        } else if name == "**" {
            self = .catchAll
        } else if name.count > 2, name.hasPrefix("{"), name.hasSuffix("}") {
            self = .parameter(name: String(name.dropFirst().dropLast()), spelling: name)
        } else if name.count > 1, name.hasPrefix(":") {
            self = .parameter(name: String(name.dropFirst()), spelling: name)
        } else {
            self = .literal(name)
        }
    }

    /// The folder name, as the user spelled it.
    public var spelling: String {
        switch self {
        case .literal(let text): text
        case .parameter(_, let spelling): spelling
        case .wildcard: "*"
        case .catchAll: "**"
        }
    }

    /// Segments that match the same requests share a key: `{id}`, `:id` and `*` are all one-segment wildcards.
    var matchKey: String {
        switch self {
        case .literal(let text): "=" + text
        case .parameter, .wildcard: "*"
        case .catchAll: "**"
        }
    }
}
