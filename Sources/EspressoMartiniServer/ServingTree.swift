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

        init(exchange: Exchange, counter: CallCounter, responses: [PreparedResponse]) {
            self.exchange = exchange
            self.counter = counter
            self.responses = responses
        }
    }

    /// Files the loader read are served from memory. Larger files up to this size are too, while the
    /// tree's total stays within `memoryBudget`: libmicrohttpd sends a buffer about twice as fast as it
    /// sends a file.
    static let memoryFileLimit = 2 * 1024 * 1024
    static let memoryBudget = 64 * 1024 * 1024

    let tree: ExchangeTree
    let exchanges: [ServingExchange]

    /// Prepares the responses on every core.
    init(_ tree: ExchangeTree, counters: CallCounters, configuration: ServerConfiguration) {
        self.tree = tree
        let counterList = counters.counters(for: tree.exchanges.map(\.counterKey))
        let inMemory = Self.filesInMemory(tree)
        let indices = Array(tree.exchanges.indices)
        self.exchanges = indices.concurrentMap { index in
            let exchange = tree.exchanges[index]
            let responses = exchange.responses.indices.map {
                PreparedResponse(
                    exchange.responses[$0], fileInMemory: inMemory.contains(ResponsePlace(exchange: index, response: $0)),
                    globalHeaders: configuration.headers, globalDelay: configuration.delay
                )
            }
            return ServingExchange(exchange: exchange, counter: counterList[index], responses: responses)
        }
    }

    /// Where a response sits in a tree: its exchange's index, and its own in the sequence.
    struct ResponsePlace: Hashable {
        let exchange: Int
        let response: Int
    }

    /// The responses whose file, left on disk by the loader, is read now and kept in memory. Decided in
    /// tree order, so the same tree always gets the same choice.
    static func filesInMemory(_ tree: ExchangeTree) -> Set<ResponsePlace> {
        var budget = memoryBudget
        var places = Set<ResponsePlace>()
        for (exchangeIndex, exchange) in tree.exchanges.enumerated() {
            for (responseIndex, response) in exchange.responses.enumerated() {
                guard case .file(_, _, let size) = response.body, size <= memoryFileLimit, size <= budget else { continue }
                budget -= size
                places.insert(ResponsePlace(exchange: exchangeIndex, response: responseIndex))
            }
        }
        return places
    }
}
