extension Condition: CustomStringConvertible {
    /// In words, as messages show it: `query "page" equals "2"`, `json "/customer/tier" equals "gold"`,
    /// `body contains "x"`.
    public var description: String {
        switch self {
        case .query(let name, let matcher): "query \(Self.quoted(name)) \(matcher)"
        case .header(let name, let matcher): "header \(Self.quoted(name)) \(matcher)"
        case .cookie(let name, let matcher): "cookie \(Self.quoted(name)) \(matcher)"
        case .path(let name, let matcher): "path \(Self.quoted(name)) \(matcher)"
        case .body(let matcher): "body \(matcher)"
        case .json(let pointer, let matcher): "json \(Self.quoted(pointer)) \(matcher)"
        case .form(let name, let matcher): "form \(Self.quoted(name)) \(matcher)"
        case .graphQL(let operation, let type):
            ["graphql", operation.map { "operation \($0)" }, type.map { "type is \($0.rawValue)" }]
                .compactMap { $0 }.joined(separator: " ")
        }
    }

    private static func quoted(_ text: String) -> String {
        JSONValue.string(text).jsonText()
    }
}
