extension RouteTrie {
    /// Takes the routes of one snapshot, then `freeze()` makes the immutable trie that serves them.
    public struct Builder {
        private var nodes = [Node()]
        private var literals = LiteralEdges()
        private var methodSlots: [Int32] = []

        public init() {
            // A method table has a slot for each raw value: they must number the cases from 0.
            precondition(
                HTTPMethod.allCases.map(\.rawValue) == Array(0..<RouteTrie.methodTableSize),
                "HTTPMethod raw values must be 0, 1, 2… in case order"
            )
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
            if nodes[node].methodTable < 0 {
                nodes[node].methodTable = Int32(methodSlots.count)
                methodSlots.append(contentsOf: repeatElement(-1, count: RouteTrie.methodTableSize))
            }
            let slot = Int(nodes[node].methodTable) + method.rawValue
            if methodSlots[slot] >= 0 { return Int(methodSlots[slot]) }
            methodSlots[slot] = Int32(exchange)
            return nil
        }

        /// The trie of the routes inserted so far, its tables without spare room. The builder stays
        /// usable; what it takes afterwards does not reach the trie.
        public func freeze() -> RouteTrie {
            RouteTrie(
                nodes: nodes.withUnsafeBufferPointer { Array($0) },
                literals: literals.trimmed(),
                methodSlots: methodSlots.withUnsafeBufferPointer { Array($0) }
            )
        }

        private mutating func child(of node: Int, for segment: RouteSegment) -> Int {
            let existing: Int32
            var literal = segment.literalText
            switch segment {
            case .literal, .encodedLiteral: existing = literal!.withUTF8 { literals.child(of: Int32(node), named: $0) }
            case .parameter, .wildcard: existing = nodes[node].single
            case .catchAll: existing = nodes[node].catchAll
            }
            if existing >= 0 { return Int(existing) }
            let created = Int32(nodes.count)
            nodes.append(Node())
            switch segment {
            case .literal, .encodedLiteral:
                literal!.withUTF8 { literals.insert(parent: Int32(node), name: $0, child: created) }
            case .parameter, .wildcard: nodes[node].single = created
            case .catchAll: nodes[node].catchAll = created
            }
            return Int(created)
        }
    }
}
