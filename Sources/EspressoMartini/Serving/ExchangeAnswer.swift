/// An exchange's response chosen for one request: its serving tree (kept alive while the request waits
/// out its delay, even across a reload), the exchange, the variant that answers (nil without variants)
/// and the response's 0-based position in the exchange's `responses`; for a template, what it rendered.
public struct ExchangeAnswer: Sendable {
    public let tree: ServingTree
    public let exchangeIndex: Int
    public let position: Int
    public let variant: Int?
    /// The call number the counter gave this request (from 1); 0 when not counted.
    public let call: Int
    /// A templated response rendered for this request (sent in place of the tree's slot); nil for any other.
    public let rendered: GeneratedAnswer?

    public init(tree: ServingTree, exchangeIndex: Int, position: Int, variant: Int? = nil, call: Int = 0, rendered: GeneratedAnswer? = nil) {
        self.tree = tree
        self.exchangeIndex = exchangeIndex
        self.position = position
        self.variant = variant
        self.call = call
        self.rendered = rendered
    }

    /// This answer with `rendered` as what is sent.
    public func sending(_ rendered: GeneratedAnswer) -> ExchangeAnswer {
        ExchangeAnswer(tree: tree, exchangeIndex: exchangeIndex, position: position, variant: variant, call: call, rendered: rendered)
    }

    public var exchange: Exchange { tree.tree.exchanges[exchangeIndex] }

    public var response: ConfiguredResponse { exchange.responses[position] }

    // Read in place, field by field: `response` would copy the whole response (a retain per member).
    public var statusCode: UInt32 { UInt32(exchange.responses[position].statusCode) }

    /// The status the journal and the access log report: 0 for a fault, which sends no status (or, cut
    /// short, not the answer it announced).
    public var reportedStatus: UInt32 {
        tree.hasFaults && exchange.responses[position].fault != nil ? 0 : statusCode
    }

    /// The response's fault; nil without (read only on a tree where some response has one).
    public var fault: ResponseFault? { exchange.responses[position].fault }

    /// The seconds to wait: the response's own delay (a fresh draw for a range), else the global one.
    public var delay: Double { exchange.responses[position].delay?.seconds ?? tree.globalDelay }

    /// The response's 0-based position in its sequence (its variant's, with variants), and the sequence's length.
    public var sequencePosition: (index: Int, count: Int) {
        guard let variant else { return (position, exchange.responses.count) }
        let range = exchange.variants[variant].responses
        return (position - range.lowerBound, range.count)
    }

    /// Where the sender keeps the response built for the wire.
    public var slot: Int { tree.slot(exchangeAt: exchangeIndex, position: position) }
}
