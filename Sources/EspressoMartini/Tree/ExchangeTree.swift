/// An immutable snapshot of a loaded requests folder: its exchanges and the trie that finds them.
/// A reload builds a new one aside; the server swaps a single reference. A class, so that a request
/// takes it with one retain rather than one per array it holds.
public final class ExchangeTree: Sendable {
    /// Sorted by route (byte-wise), then method.
    public let exchanges: [Exchange]
    public let trie: RouteTrie
    /// The requests folder as the user named it.
    public let folder: String
    /// The requests folder with links resolved.
    public let realFolder: String

    /// `trie` finds exchanges by their index in `exchanges`. The loader builds trees; tests and fuzz targets may too.
    public init(exchanges: [Exchange], trie: RouteTrie, folder: String, realFolder: String) {
        self.exchanges = exchanges
        self.trie = trie
        self.folder = folder
        self.realFolder = realFolder
    }

    /// A tree of `exchanges` (no two with the same key), put in tree order: the runtime exchanges of one
    /// scope.
    public convenience init(ordering exchanges: [Exchange], folder: String, realFolder: String) {
        let ordered = Self.ordered(exchanges)
        var routes = RouteTrie.Builder()
        for (index, exchange) in ordered.enumerated() {
            _ = routes.insert(exchange.route, method: exchange.method, exchange: index)
        }
        self.init(exchanges: ordered, trie: routes.freeze(), folder: folder, realFolder: realFolder)
    }

    /// By route (byte-wise), then method, then method folder (`GET` before `get`) so that the order
    /// never depends on the disk.
    public static func ordered(_ exchanges: [Exchange]) -> [Exchange] {
        exchanges.sorted { a, b in
            let routeOrder = a.route.description.compareBytewise(b.route.description)
            if routeOrder != 0 { return routeOrder < 0 }
            if a.method != b.method { return a.method.name < b.method.name }
            return a.methodFolderName.precedesBytewise(b.methodFolderName)
        }
    }

    /// Where the response file `name` of `exchange` is: `path` when the loader resolved one, else the
    /// file of that name in the method folder.
    public func path(ofFile name: String, at path: String?, in exchange: Exchange) -> String {
        path ?? FileSystem.join(FileSystem.join(realFolder, exchange.folder), name)
    }

    /// The exchange for `method` at `path`; for a method no folder can name (nil), only `405` or `404`.
    public func resolve(_ path: RequestPath, method: HTTPMethod?) -> RouteMatch {
        guard let method else {
            let allowed = trie.allowedMethods(path)
            return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
        }
        return trie.resolve(path, method: method)
    }
}
