/// The route a request resolves to over the tree and the runtime exchanges it sees (its session's and
/// the server-wide ones, doc/admin-api.md): what the trie found, and in which tree.
public struct ResolvedRoute: Sendable {
    public let match: RouteMatch
    /// The runtime exchanges' tree that `match`'s exchange index is in; nil: the tree in service.
    public let overlay: ServingTree?

    public init(_ match: RouteMatch, overlay: ServingTree? = nil) {
        self.match = match
        self.overlay = overlay
    }
}
