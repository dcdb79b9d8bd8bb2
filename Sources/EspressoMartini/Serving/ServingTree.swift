/// A loaded tree made ready to serve: every exchange tied to its call counters, a sending plan and a slot
/// for each response. Immutable; requests hold on to the one they started with, so a reload never disturbs
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

    /// The exchanges as loaded, and their routes.
    public let exchangeTree: ExchangeTree
    public let globalHeaders: [HTTPHeader]
    public let globalDelay: Double
    /// The network of each response that goes out on one (its own, its exchange's, the server's), by slot.
    private let networks: [Int: NetworkCondition]
    /// The default session's call counters (one per exchange, or one per variant), in tree order.
    public let counters: [CallCounter]
    /// Each exchange's first counter in `counters`; empty when no exchange has variants, as the counter of
    /// the exchange at `i` is then `counters[i]`.
    private let firstCounters: [Int32]
    /// Whether some exchange's variants, template or script read the body: only then does the server look
    /// up a request's exchange before its body arrives, to keep the body for it.
    public let readsBodies: Bool
    /// Each exchange's first slot; the slots of its other responses follow.
    private let firstSlots: [Int32]
    /// How each response is sent, by slot.
    private let plans: [SendingPlan]
    /// The responses as the sender built them, by slot.
    public let built: ResponseSlots
    /// The responses (by slot) whose file is too large for memory, or beyond the budget. Decided in
    /// tree order, so the same tree always gets the same choice.
    public let diskFiles: [Int: DiskFile]
    /// Each slot's file kept in memory, as an index into `fileBytes`; -1 for a slot without one. The responses
    /// of an imported exchange's variants share one file, and each file is read once.
    private let memoryFiles: [Int32]
    /// The files kept in memory, once read (ahead of their first request when small). Files of equal
    /// contents share their bytes.
    private let fileBytes: Locked<[FileBytes?]>

    public init(_ tree: ExchangeTree, counters: CallCounters, configuration: ServerConfiguration) {
        exchangeTree = tree
        globalHeaders = configuration.headers
        globalDelay = configuration.delay
        self.counters = counters.counters(for: tree.exchanges)
        var next = 0
        firstCounters =
            !tree.exchanges.contains(where: { !$0.variants.isEmpty })
            ? []
            : tree.exchanges.map { exchange in
                defer { next += exchange.counterCount }
                return Int32(next)
            }
        readsBodies = tree.exchanges.contains(where: \.readsBody)
        var slots = 0
        firstSlots = tree.exchanges.map { exchange in
            defer { slots += exchange.responses.count }
            return Int32(slots)
        }
        var diskFiles: [Int: DiskFile] = [:]
        var networks: [Int: NetworkCondition] = [:]
        var plans: [SendingPlan] = []
        plans.reserveCapacity(slots)
        var memoryFiles = [Int32](repeating: -1, count: slots)
        var fileIndices: [String: Int32] = [:]
        var budget = Self.memoryBudget
        Self.forEachResponse(in: tree) { slot, exchange, response in
            var fromDisk = false
            if case .fixed(let content) = response.kind, case .file(let name, let path, let size) = content.body {
                let filePath = tree.path(ofFile: name, at: path, in: exchange)
                if let index = fileIndices[filePath] {
                    memoryFiles[slot] = index
                } else if size <= Self.memoryFileLimit, size <= budget {
                    budget -= size
                    memoryFiles[slot] = Int32(fileIndices.count)
                    fileIndices[filePath] = Int32(fileIndices.count)
                } else {
                    fromDisk = true
                    diskFiles[slot] = DiskFile(
                        path: filePath,
                        headers: content.effectiveHeaders(global: configuration.headers))
                }
            }
            if let network = response.network?.over(configuration.network) ?? configuration.network, network.slows {
                networks[slot] = network
            }
            plans.append(SendingPlan(response, fromDisk: fromDisk, slowed: networks[slot] != nil))
        }
        self.plans = plans
        self.networks = networks
        self.diskFiles = diskFiles
        self.memoryFiles = memoryFiles
        built = ResponseSlots(count: slots)
        fileBytes = Locked([FileBytes?](repeating: nil, count: fileIndices.count))
    }

    /// Calls `body` with every response of `tree`, its slot and its exchange, in tree order.
    private static func forEachResponse(
        in tree: ExchangeTree, _ body: (_ slot: Int, Exchange, ConfiguredResponse) -> Void
    ) {
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
    /// loaded, as if with it: a file edited later is served as it was until the next reload. Files of equal
    /// contents (an imported tree's error answer, in every operation's folder) keep one copy.
    public func readFilesAhead() {
        var distinct: Set<FileBytes> = []
        Self.forEachResponse(in: exchangeTree) { slot, exchange, response in
            let index = Int(memoryFiles[slot])
            guard index >= 0, plans[slot].kind == .prebuilt || plans[slot].kind == .fault,
                case .file(let name, let path, let size)? = response.content?.body,
                size <= Self.readAheadLimit, !built.isBuilt(slot), fileBytes.withLock({ $0[index] == nil }),
                let bytes = FileBytes.reading(path: exchangeTree.path(ofFile: name, at: path, in: exchange))
            else { return }
            let kept = distinct.insert(bytes).memberAfterInsert
            fileBytes.withLock { $0[index] = $0[index] ?? kept }
        }
    }

    /// The bytes of the file kept in memory for `slot`, at `path`: as read before, else read now. Nil when
    /// the file cannot be read now (then a later request tries again).
    public func bytes(ofFileIn slot: Int, at path: String) -> FileBytes? {
        let index = Int(memoryFiles[slot])
        guard index >= 0 else { return FileBytes.reading(path: path) }
        if let known = fileBytes.withLock({ $0[index] }) { return known }
        guard let bytes = FileBytes.reading(path: path) else { return nil }
        return fileBytes.withLock { files in
            if let raced = files[index] { return raced }
            files[index] = bytes
            return bytes
        }
    }

    /// The counter of variant `variant` (0 without variants) of the exchange at `index`, the default session's.
    @inline(__always)
    public func counter(exchangeAt index: Int, variant: Int = 0) -> CallCounter {
        counters[(firstCounters.isEmpty ? index : Int(firstCounters[index])) + variant]
    }

    @inline(__always)
    public func slot(exchangeAt index: Int, position: Int) -> Int {
        Int(firstSlots[index]) + position
    }

    @inline(__always)
    public func sendingPlan(_ slot: Int) -> SendingPlan {
        plans[slot]
    }

    /// The network the response in `slot` goes out on; nil at full speed.
    public func network(_ slot: Int) -> NetworkCondition? {
        networks[slot]
    }
}
