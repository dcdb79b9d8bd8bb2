/// One condition of a variant's `when`: a matcher on one part of the request.
public enum VariantCondition: Sendable {
    case query(name: String, Matcher)
    case header(lowercasedName: String, Matcher)
    case cookie(name: String, Matcher)
    case path(name: String, Matcher)
    case body(Matcher)
    /// `body_base64`: the body's bytes.
    case bodyBytes(ByteMatcher)
    case json(JSONPointer, Matcher)
    case form(name: String, Matcher)
    case multipart(name: String, PartMatcher)
    case graphQLOperation(Matcher)
    case graphQLType(GraphQLOperation.OperationType)

    /// Whether the request satisfies the condition. Builds no message.
    public func holds(for request: some VariantInput) -> Bool {
        switch self {
        case .query(let name, let matcher): return matcher.holds(for: request.queryValues(name))
        case .header(let name, let matcher): return matcher.holds(for: request.headerValues(name))
        case .cookie(let name, let matcher): return matcher.holds(for: request.cookieValues(name))
        case .path(let name, let matcher): return matcher.holds(for: request.pathParameter(name).map { [$0] } ?? [])
        case .body(let matcher):
            return !request.bodyTooLarge && matcher.holds(for: request.bodyText.map { [$0] } ?? [])
        case .bodyBytes(let matcher):
            return !request.bodyTooLarge && matcher.holds(for: request.bodyBytes)
        case .json(let pointer, let matcher):
            guard !request.bodyTooLarge, let value = request.bodyJSON(at: pointer) else { return false }
            return matcher.holds(for: value)
        case .form(let name, let matcher):
            return !request.bodyTooLarge && matcher.holds(for: request.formValues(name))
        case .multipart(let name, let matcher):
            return !request.bodyTooLarge && matcher.holds(for: request.multipartForm?.parts(named: name) ?? [])
        case .graphQLOperation(let matcher):
            guard let operation = request.graphQLOperation else { return false }
            return matcher.holds(for: operation.name.map { [$0] } ?? [])
        case .graphQLType(let type):
            return request.graphQLOperation?.type == type
        }
    }

    /// Nil when the condition holds; else what the request had against what was expected
    /// (`query "page" is "3", expected "2"`).
    public func mismatch(for request: some VariantInput) -> String? {
        switch self {
        case .query(let name, let matcher):
            return matcher.mismatch(for: request.queryValues(name), subject: "query " + Matcher.quoted(name))
        case .header(let name, let matcher):
            return matcher.mismatch(for: request.headerValues(name), subject: "header " + Matcher.quoted(name))
        case .cookie(let name, let matcher):
            return matcher.mismatch(for: request.cookieValues(name), subject: "cookie " + Matcher.quoted(name))
        case .path(let name, let matcher):
            return matcher.mismatch(
                for: request.pathParameter(name).map { [$0] } ?? [], subject: "path " + Matcher.quoted(name))
        case .body(let matcher):
            if request.bodyTooLarge { return "body " + Self.tooLarge }
            return matcher.mismatch(for: request.bodyText.map { [$0] } ?? [], subject: "body")
        case .bodyBytes(let matcher):
            if request.bodyTooLarge { return "body_base64 " + Self.tooLarge }
            return matcher.mismatch(for: request.bodyBytes, subject: "body_base64")
        case .json(let pointer, let matcher):
            let subject = "json " + Matcher.quoted(pointer.text)
            if request.bodyTooLarge { return subject + " " + Self.tooLarge }
            guard let value = request.bodyJSON(at: pointer) else {
                return subject
                    + (request.bodyText == nil
                        ? " cannot be checked: the request has no body" : " cannot be checked: the body is not JSON")
            }
            return matcher.mismatch(for: value, subject: subject)
        case .form(let name, let matcher):
            let subject = "form " + Matcher.quoted(name)
            if request.bodyTooLarge { return subject + " " + Self.tooLarge }
            return matcher.mismatch(for: request.formValues(name), subject: subject)
        case .multipart(let name, let matcher):
            let subject = "multipart " + Matcher.quoted(name)
            if request.bodyTooLarge { return subject + " " + Self.tooLarge }
            let form = request.multipartForm
            guard let mismatch = matcher.mismatch(for: form?.parts(named: name) ?? [], subject: subject) else {
                return nil
            }
            guard form == nil else { return mismatch }
            return subject
                + (request.bodyBytes == nil
                    ? " cannot be checked: the request has no body"
                    : " cannot be checked: the body is not multipart/form-data")
        case .graphQLOperation(let matcher):
            guard let operation = request.graphQLOperation else { return "graphql operation " + Self.noGraphQL }
            return matcher.mismatch(for: operation.name.map { [$0] } ?? [], subject: "graphql operation")
        case .graphQLType(let type):
            guard let operation = request.graphQLOperation else { return "graphql type " + Self.noGraphQL }
            guard operation.type != type else { return nil }
            return
                "graphql type is \(Matcher.quoted(operation.type.rawValue)), expected \(Matcher.quoted(type.rawValue))"
        }
    }

    private static var tooLarge: String {
        "cannot be checked: the body is larger than \(VariantConditions.bodyLimit / 1_048_576) MiB"
    }

    private static let noGraphQL = "cannot be checked: the request runs no single GraphQL operation"

    /// Whether the condition reads the body (GraphQL may come in a POST body).
    public var readsBody: Bool {
        switch self {
        case .body, .bodyBytes, .json, .form, .multipart, .graphQLOperation, .graphQLType: true
        case .query, .header, .cookie, .path: false
        }
    }

    /// The short form in listings: `query page=2`, `header authorization absent`.
    public var summary: String {
        switch self {
        case .query(let name, let matcher): "query " + name + matcher.summary
        case .header(let name, let matcher): "header " + name + matcher.summary
        case .cookie(let name, let matcher): "cookie " + name + matcher.summary
        case .path(let name, let matcher): "path " + name + matcher.summary
        case .body(let matcher): "body" + matcher.summary
        case .bodyBytes(let matcher): "body_base64" + matcher.summary
        case .json(let pointer, let matcher): "json " + (pointer.text.isEmpty ? "\"\"" : pointer.text) + matcher.summary
        case .form(let name, let matcher): "form " + name + matcher.summary
        case .multipart(let name, let matcher): "multipart " + name + matcher.summary
        case .graphQLOperation(let matcher): "graphql operation" + matcher.summary
        case .graphQLType(let type): "graphql type=" + type.rawValue
        }
    }
}
