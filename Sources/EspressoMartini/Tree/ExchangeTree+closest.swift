extension ExchangeTree {
    /// Up to `limit` exchanges most like `path` (`GET /api/v1/products/{id}` for `/api/v1/product/7`),
    /// most alike first, an exchange of `method` first among equals; none more than a third unlike.
    public func closest(to path: [String], method: String, limit: Int = 3) -> [Exchange] {
        Self.closest(to: path, method: method, among: exchanges, limit: limit)
    }

    /// The same over `exchanges` (the tree's and runtime ones); the earlier first among equals.
    public static func closest(
        to path: [String], method: String, among exchanges: [Exchange], limit: Int = 3
    )
        -> [Exchange]
    {
        let scored = exchanges.map { exchange in
            (
                exchange,
                RouteSimilarity.distance(from: path, to: exchange.route) + (exchange.method.name == method ? 0 : 0.05)
            )
        }
        return scored.filter { $0.1 <= RouteSimilarity.closeEnough }.sorted { $0.1 < $1.1 }.prefix(limit).map(\.0)
    }
}
