/// Routes frozen into a trie keyed by path segment, so finding an exchange costs the depth of the path,
/// not the size of the tree. Built once per snapshot, never changed afterwards. Flat: the nodes in one
/// array, every literal edge of the trie in one table, and method tables only for nodes with exchanges,
/// which keeps a trie of thousands of folders small.
public struct RouteTrie: Sendable {
    struct Node: Sendable {
        var single: Int32 = -1
        var catchAll: Int32 = -1
        /// Index in `methodTables`, -1 while the node has no exchange.
        var methodTable: Int32 = -1
    }

    /// Exchange index per method, -1 where none, stored inline (no allocation per table).
    struct MethodTable: Sendable {
        private var slots: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1, -1, -1, -1, -1)

        subscript(method: HTTPMethod) -> Int32 {
            get { withUnsafeBytes(of: slots) { $0.load(fromByteOffset: method.rawValue * 4, as: Int32.self) } }
            set { withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: newValue, toByteOffset: method.rawValue * 4, as: Int32.self) } }
        }
    }

    private(set) var nodes: [Node] = [Node()]
    private var literals = LiteralEdges()
    private var methodTables: [MethodTable] = []

    public init() {}

    /// The exchange at `node` for `method`, -1 where none.
    func exchange(at node: Int, for method: HTTPMethod) -> Int32 {
        let table = nodes[node].methodTable
        return table < 0 ? -1 : methodTables[Int(table)][method]
    }

    /// The child of `node` for the literal segment `name` (its UTF-8 bytes), -1 where none.
    func literalChild(of node: Int, named name: UnsafeBufferPointer<UInt8>) -> Int32 {
        literals.child(of: Int32(node), named: name)
    }

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
        let existing = self.exchange(at: node, for: method)
        if existing >= 0 { return Int(existing) }
        if nodes[node].methodTable < 0 {
            nodes[node].methodTable = Int32(methodTables.count)
            methodTables.append(MethodTable())
        }
        methodTables[Int(nodes[node].methodTable)][method] = Int32(exchange)
        return nil
    }

    /// Gives back the spare room the tables grew with; called once the last route is in.
    public mutating func trimCapacity() {
        nodes = nodes.withUnsafeBufferPointer { Array($0) }
        methodTables = methodTables.withUnsafeBufferPointer { Array($0) }
        literals.trimCapacity()
    }

    private mutating func child(of node: Int, for segment: RouteSegment) -> Int {
        let existing: Int32
        switch segment {
        case .literal(var text): existing = text.withUTF8 { literalChild(of: node, named: $0) }
        case .parameter, .wildcard: existing = nodes[node].single
        case .catchAll: existing = nodes[node].catchAll
        }
        if existing >= 0 { return Int(existing) }
        let created = Int32(nodes.count)
        nodes.append(Node())
        switch segment {
        case .literal(var text): text.withUTF8 { literals.insert(parent: Int32(node), name: $0, child: created) }
        case .parameter, .wildcard: nodes[node].single = created
        case .catchAll: nodes[node].catchAll = created
        }
        return Int(created)
    }
}
