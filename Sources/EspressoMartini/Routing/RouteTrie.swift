/// Routes frozen into a trie keyed by path segment, so finding an exchange costs the depth of the path,
/// not the size of the tree. Built once per snapshot, never changed afterwards.
public struct RouteTrie: Sendable {
    struct Node: Sendable {
        var literals: [String: Int32] = [:]
        var single: Int32 = -1
        var catchAll: Int32 = -1
        var exchanges = MethodTable()

        func exchange(for method: HTTPMethod) -> Int32 { exchanges[method] }
    }

    /// Exchange index per method, -1 where none: stored inline in the node (no allocation per node,
    /// which counts on trees of thousands of folders).
    struct MethodTable: Sendable {
        private var slots: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1, -1, -1, -1, -1)

        subscript(method: HTTPMethod) -> Int32 {
            get { withUnsafeBytes(of: slots) { $0.load(fromByteOffset: method.rawValue * 4, as: Int32.self) } }
            set { withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: newValue, toByteOffset: method.rawValue * 4, as: Int32.self) } }
        }
    }

    private(set) var nodes: [Node] = [Node()]

    public init() {}

    /// Adds a route; returns the index of the exchange already there for the same method and
    /// an equivalent pattern (the caller reports the clash), or nil when the place was free.
    public mutating func insert(_ pattern: RoutePattern, method: HTTPMethod, exchange: Int) -> Int? {
        insert(method: method, exchange: exchange, at: node(for: pattern))
    }

    /// The node of a route, created with the nodes above it when new. The loader inserts exchanges
    /// sorted by route, so the methods of one folder reuse one lookup.
    public mutating func node(for pattern: RoutePattern) -> Int {
        var node = 0
        for segment in pattern.segments {
            node = child(of: node, for: segment)
        }
        return node
    }

    /// Adds an exchange at `node` (from `node(for:)`); returns the exchange already there for the same
    /// method, or nil when the place was free.
    public mutating func insert(method: HTTPMethod, exchange: Int, at node: Int) -> Int? {
        let existing = nodes[node].exchanges[method]
        if existing >= 0 { return Int(existing) }
        nodes[node].exchanges[method] = Int32(exchange)
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
