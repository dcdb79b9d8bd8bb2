/// Routes frozen into a trie keyed by path segment, so finding an exchange costs the depth of the path,
/// not the size of the tree. Made by `RouteTrie.Builder.freeze()` and never changed afterwards, so any
/// thread may read it. Flat: the nodes in one array, every literal edge in one table, and the method
/// tables of the nodes with exchanges side by side in one array, which keeps a trie of thousands of
/// folders small.
public struct RouteTrie: Sendable {
    struct Node: Sendable {
        var single: Int32 = -1
        var catchAll: Int32 = -1
        /// Where the node's method table starts in `methodSlots`, -1 while the node has no exchange.
        var methodTable: Int32 = -1
    }

    /// The slots of one method table: one per `HTTPMethod`, at the method's raw value.
    static let methodTableSize = HTTPMethod.allCases.count

    let nodes: [Node]
    let literals: LiteralEdges
    /// The method tables, `methodTableSize` slots each: the exchange index, -1 where none.
    let methodSlots: [Int32]

    init(nodes: [Node], literals: LiteralEdges, methodSlots: [Int32]) {
        self.nodes = nodes
        self.literals = literals
        self.methodSlots = methodSlots
    }

    /// The exchange at `node` for `method`, -1 where none.
    func exchange(at node: Int, for method: HTTPMethod) -> Int32 {
        let table = nodes[node].methodTable
        return table < 0 ? -1 : methodSlots[Int(table) + method.rawValue]
    }

    /// The child of `node` for the literal segment `name` (its UTF-8 bytes), -1 where none.
    func literalChild(of node: Int, named name: UnsafeBufferPointer<UInt8>) -> Int32 {
        literals.child(of: Int32(node), named: name)
    }
}
