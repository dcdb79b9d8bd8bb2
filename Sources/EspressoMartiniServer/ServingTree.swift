import Dispatch
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

    /// Prepares the responses on every core: reading the small response files of a large tree is most
    /// of the work of a start or a reload.
    init(_ tree: ExchangeTree, counters: CallCounters, configuration: ServerConfiguration) {
        self.tree = tree
        let counterList = tree.exchanges.map { counters.counter(for: $0.counterKey) }
        let prepared = [ServingExchange?](unsafeUninitializedCapacity: tree.exchanges.count) { buffer, count in
            // Each iteration writes its own slot only.
            nonisolated(unsafe) let slots = buffer.baseAddress!
            DispatchQueue.concurrentPerform(iterations: tree.exchanges.count) { index in
                let exchange = tree.exchanges[index]
                let responses = exchange.responses.map {
                    PreparedResponse($0, globalHeaders: configuration.headers, globalDelay: configuration.delay)
                }
                (slots + index).initialize(to: ServingExchange(exchange: exchange, counter: counterList[index], responses: responses))
            }
            count = tree.exchanges.count
        }
        self.exchanges = prepared.map { $0! }
    }
}
