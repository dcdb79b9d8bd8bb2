/// What the trie found for a request.
public enum RouteMatch: Sendable, Equatable {
    /// An exchange answers: its index in the tree (for `HEAD`, possibly a `GET` exchange; the body is then left out).
    case exchange(Int)
    /// Routes match the path, none has the method: these methods are allowed (`HEAD` included where there is `GET`).
    case methodNotAllowed([HTTPMethod])
    /// No route matches the path.
    case notFound
}
