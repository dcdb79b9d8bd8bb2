/// One thing a request must have, in the language of a variant's `when` (doc/variants.md): a variant
/// answers when all its conditions hold, and a count or a check of what the app sent selects the
/// requests that satisfy all of theirs.
///
/// ```swift
/// [.query("page", .equals("2")), .header("Authorization", .prefix("Bearer ")), .json("/customer/tier", "gold")]
/// ```
///
/// A plain string where a matcher goes means `.equals` that string. `Condition.whenObject(_:)` gives the
/// `when` object the server reads.
public enum Condition: Sendable, Hashable {
    /// A query parameter, percent-decoded, `+` read as a space.
    case query(String, Matcher)
    /// A request header; its name in any case.
    case header(String, Matcher)
    /// A cookie of the `Cookie` header; its name as sent.
    case cookie(String, Matcher)
    /// A path parameter: what the route's `{name}` (or `:name`) captured, percent-decoded.
    case path(String, Matcher)
    /// The whole body as text.
    case body(Matcher)
    /// The body parsed as JSON, at an RFC 6901 JSON Pointer (`/items/0/id`, `""` for the whole document).
    /// Here `.equals` takes any JSON value and compares as JSON (`1` equals `1.0`).
    case json(String, Matcher)
    /// A field of an `application/x-www-form-urlencoded` body.
    case form(String, Matcher)
    /// The GraphQL request (a POST JSON body or the query of a GET): its operation name, its operation type,
    /// or both.
    case graphQL(operation: Matcher? = nil, type: GraphQLOperationType? = nil)
}

extension Condition {
    /// The operation types a `graphQL` condition can ask for.
    public enum GraphQLOperationType: String, Sendable, Hashable, CaseIterable {
        case query, mutation, subscription
    }
}
