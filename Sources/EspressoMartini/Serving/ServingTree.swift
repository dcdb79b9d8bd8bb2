/// A loaded tree made ready to serve: every exchange tied to its call counter, a slot for each response
/// once built. Immutable; requests hold on to the one they started with, so a reload never disturbs
/// them. Flat arrays rather than an object per exchange: a tree of 10 000 exchanges stays small.
public final class ServingTree: Sendable {
    /// A file sent from disk for every request: its path, and the headers worked out once here.
    public struct DiskFile: Sendable {
        public let path: String
        public let headers: [HTTPHeader]
    }

    /// Response files up to this size are served from memory, read once per tree, while the tree's total
    /// stays within `memoryBudget`: libmicrohttpd sends a buffer about twice as fast as it sends a file.
    static let memoryFileLimit = 2 * 1024 * 1024
    static let memoryBudget = 64 * 1024 * 1024
    /// Files in memory up to this size are read as soon as the tree is in service (typical JSON bodies);
    /// larger ones wait for their first request, so that a tree of many large files does not hold them
    /// all before they are asked for.
    static let readAheadLimit = 64 * 1024

    public let tree: ExchangeTree
    public let globalHeaders: [HTTPHeader]
    public let globalDelay: Double
    /// Each exchange's call counters (one, or one per variant), in tree order.
    public let counters: [CallCounter]
    /// Whether some exchange has variants. Without, `decide` never looks at an exchange's variants and
    /// the counter of the exchange at `i` is `counters[i]`.
    public let hasVariants: Bool
    /// Whether some response has a `fault`: only then does the sender look for one.
    public let hasFaults: Bool
    /// With variants, each exchange's first counter in `counters`; empty without.
    private let firstCounters: [Int32]
    /// Whether some exchange's variants read the body: only then does the server look up a request's
    /// exchange before its body arrives, to keep the body for it.
    public let readsBodies: Bool
    /// Whether some response is a template: only then does `decide` look for one to render.
    public let hasTemplates: Bool
    /// Whether some response is computed by a script: only then does the server look for one.
    public let hasScripts: Bool
    /// Each exchange's first slot in `built`; the slots of its other responses follow.
    private let firstSlots: [Int32]
    /// The responses as the sender built them, by slot.
    public let built: ResponseSlots
    /// The responses (by slot) whose file is too large for memory, or beyond the budget. Decided in
    /// tree order, so the same tree always gets the same choice.
    public let diskFiles: [Int: DiskFile]
    /// The small files kept in memory (by slot) as read ahead of their first request.
    private let fileBytes: Locked<[FileBytes?]>

    /// `releaseBuilt` frees a response the sender built for a slot, when this tree goes.
    public init(
        _ tree: ExchangeTree, counters: CallCounters, configuration: ServerConfiguration,
        releaseBuilt: @escaping @Sendable (UnsafeMutableRawPointer) -> Void
    ) {
        self.tree = tree
        globalHeaders = configuration.headers
        globalDelay = configuration.delay
        self.counters = counters.counters(for: tree.exchanges)
        hasVariants = tree.exchanges.contains(where: { !$0.variants.isEmpty })
        var next = 0
        firstCounters = !hasVariants ? [] : tree.exchanges.map { exchange in
            defer { next += exchange.counterCount }
            return Int32(next)
        }
        readsBodies = tree.exchanges.contains(where: \.readsBody)
        hasTemplates = tree.exchanges.contains(where: \.hasTemplates)
        hasFaults = tree.exchanges.contains { $0.responses.contains { $0.fault != nil } }
        hasScripts = tree.exchanges.contains { $0.responses.contains { $0.script != nil } }
        var slots = 0
        firstSlots = tree.exchanges.map { exchange in
            defer { slots += exchange.responses.count }
            return Int32(slots)
        }
        var diskFiles: [Int: DiskFile] = [:]
        var budget = Self.memoryBudget
        Self.forEachResponse(in: tree) { slot, exchange, response in
            guard case .file(let name, let path, let size) = response.body, response.template == nil else { return }
            if size <= Self.memoryFileLimit, size <= budget {
                budget -= size
            } else {
                diskFiles[slot] = DiskFile(
                    path: tree.path(ofFile: name, at: path, in: exchange), headers: response.effectiveHeaders(global: configuration.headers)
                )
            }
        }
        self.diskFiles = diskFiles
        built = ResponseSlots(count: slots, release: releaseBuilt)
        fileBytes = Locked([FileBytes?](repeating: nil, count: slots))
    }

    /// Calls `body` with every response of `tree`, its slot and its exchange, in tree order.
    private static func forEachResponse(in tree: ExchangeTree, _ body: (_ slot: Int, Exchange, ConfiguredResponse) -> Void) {
        var slot = 0
        for exchange in tree.exchanges {
            for response in exchange.responses {
                body(slot, exchange, response)
                slot += 1
            }
        }
    }

    /// Reads the small files kept in memory. The loader only checks files, so that the tree answers
    /// sooner; this runs as soon as the tree is in service, so they are read about when the tree was
    /// loaded, as if with it: a file edited later is served as it was until the next reload.
    public func readFilesAhead() {
        Self.forEachResponse(in: tree) { slot, exchange, response in
            guard case .file(let name, let path, let size) = response.body, response.template == nil, size <= Self.readAheadLimit, diskFiles[slot] == nil,
                  built.existing(slot) == nil, let bytes = FileBytes.reading(path: tree.path(ofFile: name, at: path, in: exchange)) else { return }
            fileBytes.withLock { $0[slot] = bytes }
        }
    }

    /// The bytes of the file kept in memory in `slot`: as read ahead, else read now. Nil when the file
    /// cannot be read now (then a later request tries again).
    public func bytes(ofFileIn slot: Int, at path: String) -> FileBytes? {
        fileBytes.withLock { $0[slot] } ?? FileBytes.reading(path: path)
    }

    /// Counts a call to the exchange at `index` (one atomic step) and returns the response it gets; nil
    /// when its `once` sequence is over.
    public func answer(exchangeAt index: Int) -> ExchangeAnswer? {
        let exchange = tree.exchanges[index]
        let (call, position) = counter(exchangeAt: index).step(responseCount: exchange.responses.count, mode: exchange.sequence)
        return position.map { ExchangeAnswer(tree: self, exchangeIndex: index, position: $0, call: call) }
    }

    /// Counts a call to variant `variant` of the exchange at `index` (one atomic step) and returns the
    /// response it gets; nil when the variant's `once` sequence is over.
    public func answer(exchangeAt index: Int, variant: Int) -> ExchangeAnswer? {
        let chosen = tree.exchanges[index].variants[variant]
        let (call, position) = counter(exchangeAt: index, variant: variant).step(responseCount: chosen.responses.count, mode: chosen.sequence)
        return position.map { ExchangeAnswer(tree: self, exchangeIndex: index, position: chosen.responses.lowerBound + $0, variant: variant, call: call) }
    }

    /// As `answer(exchangeAt:)`, with the counter of `session`.
    public func answer(exchangeAt index: Int, session: Session) -> ExchangeAnswer? {
        let exchange = tree.exchanges[index]
        let (call, position) = session.counter(for: exchange.counterKey(0)).step(responseCount: exchange.responses.count, mode: exchange.sequence)
        return position.map { ExchangeAnswer(tree: self, exchangeIndex: index, position: $0, call: call) }
    }

    /// As `answer(exchangeAt:variant:)`, with the counter of `session`.
    public func answer(exchangeAt index: Int, variant: Int, session: Session) -> ExchangeAnswer? {
        let exchange = tree.exchanges[index]
        let chosen = exchange.variants[variant]
        let (call, position) = session.counter(for: exchange.counterKey(variant)).step(responseCount: chosen.responses.count, mode: chosen.sequence)
        return position.map { ExchangeAnswer(tree: self, exchangeIndex: index, position: chosen.responses.lowerBound + $0, variant: variant, call: call) }
    }

    /// The counter of variant `variant` (0 without variants) of the exchange at `index`.
    public func counter(exchangeAt index: Int, variant: Int = 0) -> CallCounter {
        counters[(hasVariants ? Int(firstCounters[index]) : index) + variant]
    }

    public func slot(exchangeAt index: Int, position: Int) -> Int {
        Int(firstSlots[index]) + position
    }
}
