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
                    exchange.responses[$0], fileInMemory: inMemory[index][$0],
                    globalHeaders: configuration.headers, globalDelay: configuration.delay
                )
            }
            return ServingExchange(exchange: exchange, counter: counterList[index], responses: responses)
        }
    }

    /// Per exchange and response: whether its file (if any) is kept in memory. Decided in tree order, so
    /// the same tree always gets the same choice.
    static func filesInMemory(_ tree: ExchangeTree) -> [[Bool]] {
        var budget = memoryBudget
        return tree.exchanges.map { exchange in
            exchange.responses.map { response in
                guard case .file(_, _, let size) = response.body else { return true }
                guard size <= memoryFileLimit, size <= budget else { return false }
                budget -= size
                return true
            }
        }
    }
}
