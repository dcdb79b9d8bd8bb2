/// An immutable snapshot of a loaded requests folder: its exchanges and the trie that finds them.
/// A reload builds a new one aside; the server swaps a single reference.
public struct ExchangeTree: Sendable {
    /// Sorted by route (byte-wise), then method.
    public let exchanges: [Exchange]
    public let trie: RouteTrie
    /// The requests folder as the user named it.
    public let folder: String

    init(exchanges: [Exchange], trie: RouteTrie, folder: String) {
        self.exchanges = exchanges
        self.trie = trie
        self.folder = folder
    }

    public func resolve(_ path: RequestPath, method: HTTPMethod) -> RouteMatch {
        trie.resolve(path.segments, method: method)
    }
}
