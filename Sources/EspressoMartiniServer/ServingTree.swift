import EspressoMartini

/// A loaded tree made ready to serve: every response prepared, every exchange tied to its call counter.
/// Immutable; requests hold on to the one they started with, so a reload never disturbs them.
final class ServingTree: Sendable {
    /// A class, so that a request's answer refers to its exchange with a single reference.
    final class ServingExchange: Sendable {
        let exchange: Exchange
        let counter: CallCounter
        let responses: [PreparedResponse]
        /// `GET /users/{id}` for the access log, built once.
        let logLabel: String

        init(exchange: Exchange, counter: CallCounter, responses: [PreparedResponse]) {
            self.exchange = exchange
            self.counter = counter
            self.responses = responses
            self.logLabel = "\(exchange.method.name) \(exchange.route)"
        }
    }

    let tree: ExchangeTree
    let exchanges: [ServingExchange]

    init(_ tree: ExchangeTree, counters: CallCounters, configuration: ServerConfiguration) {
        self.tree = tree
        self.exchanges = tree.exchanges.map { exchange in
            ServingExchange(
                exchange: exchange,
                counter: counters.counter(for: exchange.counterKey),
                responses: exchange.responses.map {
                    PreparedResponse($0, globalHeaders: configuration.headers, globalDelay: configuration.delay)
                }
            )
        }
    }
}
