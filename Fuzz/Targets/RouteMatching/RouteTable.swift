import EspressoMartini
import EspressoMartiniJansson

/// The fixed routes every input is matched against: the precedence examples of doc/matching.md and the example
/// tree's shapes, with several methods per path, `HEAD` without `GET` and `GET` without `HEAD`, a root
/// `**`, and non-ASCII and punctuation literals.
enum RouteTable {
    static let routes: [(method: HTTPMethod, pattern: RoutePattern)] = spelled.map {
        ($0.0, RoutePattern(parsing: $0.1))
    }

    private static let spelled: [(HTTPMethod, String)] = [
        (.get, "/"),
        (.get, "/api/v1/products"),
        (.post, "/api/v1/products"),
        (.get, "/api/v1/products/{id}"),
        (.delete, "/api/v1/products/{id}"),
        (.get, "/api/v1/products/999"),
        (.get, "/api/v1/categories/*/products"),
        (.post, "/api/v1/categories/*/products"),
        (.get, "/api/v1/users/:username"),
        (.head, "/api/v1/users/:username/avatar"),
        (.put, "/api/v1/users/{name}/avatar"),
        (.get, "/cdn/images/**"),
        (.post, "/cdn/**"),
        (.get, "/docs/latest"),
        (.get, "/docs/{version}/index"),
        (.get, "/docs/**"),
        (.post, "/docs/**"),
        (.get, "/a/{x}/c"),
        (.get, "/a/b/{y}"),
        (.patch, "/a/b/c"),
        (.get, "/a/**"),
        (.options, "/**"),
        (.trace, "/*"),
        (.connect, "/*/*"),
        (.get, "/café/ünïcode"),
        (.get, "/%20/a b/{q}"),
        (.get, "/{}/:"),
    ]

    /// The routes frozen into a trie, exchange index = position in `routes`.
    static let trie: RouteTrie = {
        var builder = RouteTrie.Builder()
        for (index, route) in routes.enumerated() {
            precondition(
                builder.insert(route.pattern, method: route.method, exchange: index) == nil,
                "clashing fixed route \(route.pattern)")
        }
        return builder.freeze()
    }()

    /// The routes as a tree in service (one empty `200` each), with the decider the server uses (admin
    /// API off, so that every path is routed).
    static let serving: ServingTree = {
        let exchanges = routes.map {
            Exchange(
                method: $0.method, route: $0.pattern, methodFolderName: $0.method.name,
                responses: [ConfiguredResponse()])
        }
        let tree = ExchangeTree(exchanges: exchanges, trie: trie, folder: "", realFolder: "")
        return ServingTree(tree, counters: CallCounters(), configuration: configuration)
    }()

    static let decider = Decider(configuration: configuration, admin: nil, parser: JanssonParser())

    private static let configuration: ServerConfiguration = {
        var configuration = ServerConfiguration()
        configuration.admin = false
        return configuration
    }()
}
