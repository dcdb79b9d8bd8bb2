/// An exchange's response chosen for one request: its serving tree (kept alive while the request waits
/// out its delay or its script, even across a reload), the exchange, the variant that answers (nil without
/// variants), the response's 0-based position in the exchange's `responses`, and the call number its
/// counter gave.
public struct ExchangeAnswer: Sendable {
    public let tree: ServingTree
    public let exchangeIndex: Int
    public let position: Int
    public let variant: Int?
    /// The call number the counter gave this request (from 1).
    public let call: Int

    public init(tree: ServingTree, exchangeIndex: Int, position: Int, variant: Int? = nil, call: Int = 1) {
        self.tree = tree
        self.exchangeIndex = exchangeIndex
        self.position = position
        self.variant = variant
        self.call = call
    }

    public var exchange: Exchange { tree.exchangeTree.exchanges[exchangeIndex] }

    public var response: ConfiguredResponse { exchange.responses[position] }

    /// Where the tree keeps what the sender built for this response, and its sending plan.
    public var slot: Int { tree.slot(exchangeAt: exchangeIndex, position: position) }

    /// The configured status (a script's is its own).
    public var statusCode: UInt32 { UInt32(tree.sendingPlan(slot).statusCode) }

    /// The response's 0-based position in its sequence (its variant's, with variants), and the sequence's length.
    public var sequencePosition: (index: Int, count: Int) {
        exchange.sequencePosition(of: position, variant: variant)
    }
}
