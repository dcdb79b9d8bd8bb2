/// Routes frozen into a trie keyed by path segment, so finding an exchange costs the depth of the path,
/// not the size of the tree. Built once per snapshot, never changed afterwards.
public struct RouteTrie: Sendable {
    struct Node: Sendable {
        var literals: [String: Int32] = [:]
        var single: Int32 = -1
        var catchAll: Int32 = -1
        /// Exchange index per `HTTPMethod.rawValue`, -1 where none.
        var exchanges = [Int32](repeating: -1, count: HTTPMethod.allCases.count)

        func exchange(for method: HTTPMethod) -> Int32 { exchanges[method.rawValue] }
        var hasExchanges: Bool { exchanges.contains { $0 >= 0 } }
    }

    private(set) var nodes: [Node] = [Node()]

    public init() {}

    /// Adds a route; returns the index of the exchange already there for the same method and
    /// an equivalent pattern (the caller reports the clash), or nil when the place was free.
    public mutating func insert(_ pattern: RoutePattern, method: HTTPMethod, exchange: Int) -> Int? {
        var node = 0
        for segment in pattern.segments {
            node = child(of: node, for: segment)
        }
        let existing = nodes[node].exchanges[method.rawValue]
        if existing >= 0 { return Int(existing) }
        nodes[node].exchanges[method.rawValue] = Int32(exchange)
        return nil
    }

    private mutating func child(of node: Int, for segment: RouteSegment) -> Int {
        let existing: Int32
        switch segment {
        case .literal(let text): existing = nodes[node].literals[text] ?? -1
        case .parameter, .wildcard: existing = nodes[node].single
        case .catchAll: existing = nodes[node].catchAll
        }
        if existing >= 0 { return Int(existing) }
        let created = Int32(nodes.count)
        nodes.append(Node())
        switch segment {
        case .literal(let text): nodes[node].literals[text] = created
        case .parameter, .wildcard: nodes[node].single = created
        case .catchAll: nodes[node].catchAll = created
        }
        return Int(created)
    }
}
