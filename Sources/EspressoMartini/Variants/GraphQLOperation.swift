/// The operation a GraphQL request runs: its type and, when the document names it, its name.
public struct GraphQLOperation: Sendable, Equatable {
    public enum OperationType: String, Sendable, CaseIterable {
        case query
        case mutation
        case subscription
    }

    public let type: OperationType
    /// Nil for an anonymous operation (`{ user { id } }`, `query { … }`).
    public let name: String?

    public init(type: OperationType, name: String?) {
        self.type = type
        self.name = name
    }

    /// The operations `document` defines, in order (fragments are skipped); nil when it is not a
    /// GraphQL executable document. Follows the lexical grammar of the GraphQL specification
    /// (October 2021); inside selection sets, arguments and variable definitions it checks tokens
    /// and balanced brackets only. Never traps, reads each byte a bounded number of times, and
    /// does not recurse however deeply the brackets nest.
    public static func operations(in document: String) -> [GraphQLOperation]? {
        var reader = GraphQLDocumentReader(Array(document.utf8))
        return reader.readOperations()
    }

    /// The operation a request with this document and `operationName` runs: the operation of that
    /// name when `operationName` is given (nil when the document has none of that name), else the
    /// document's only operation (nil when it has several or none). A null or empty
    /// `operationName` counts as not given. Nil also when the document does not parse.
    public static func selected(inDocument document: String, operationName: String?) -> GraphQLOperation? {
        guard let operations = operations(in: document) else { return nil }
        if let operationName, !operationName.isEmpty {
            return operations.first { $0.name == operationName }
        }
        return operations.count == 1 ? operations[0] : nil
    }

    /// The operation of a GraphQL POST body (`{"query": …, "operationName": …, "variables": …}`);
    /// nil when the body is not such an object.
    public static func selected(inRequestBody body: JSONValue) -> GraphQLOperation? {
        guard case .object(let members) = body,
            case .string(let document)? = members.first(where: { $0.key == "query" })?.value
        else { return nil }
        var operationName: String?
        if case .string(let name)? = members.first(where: { $0.key == "operationName" })?.value { operationName = name }
        return selected(inDocument: document, operationName: operationName)
    }

    /// The operation of a GraphQL GET request (`?query=…&operationName=…`); nil when the query
    /// string has no `query`.
    public static func selected(inQuery query: URLEncodedForm) -> GraphQLOperation? {
        guard let document = query.first(named: "query") else { return nil }
        return selected(inDocument: document, operationName: query.first(named: "operationName"))
    }
}
