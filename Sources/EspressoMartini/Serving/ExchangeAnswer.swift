/// An exchange's response chosen for one request: its serving tree (kept alive while the request waits
/// out its delay, even across a reload), the exchange and the response's 0-based position in the sequence.
public struct ExchangeAnswer: Sendable {
    public let tree: ServingTree
    public let exchangeIndex: Int
    public let position: Int

    public var exchange: Exchange { tree.tree.exchanges[exchangeIndex] }

    public var response: ConfiguredResponse { exchange.responses[position] }

    public var statusCode: UInt32 { UInt32(response.statusCode) }

    /// The response's own delay in seconds, else the global one.
    public var delay: Double { response.delay ?? tree.globalDelay }

    /// Where the sender keeps the response built for the wire.
    public var slot: Int { tree.slot(exchangeAt: exchangeIndex, position: position) }
}
