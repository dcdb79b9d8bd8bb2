import Logging

/// The tree in service, and how it is replaced: `install` swaps a new tree in at once (requests already
/// running finish on the one they started with), `reload` reads the requests folder again and installs
/// it only when it has no errors. Call counters carry over for every exchange that still exists. Beside the
/// tree, the runtime exchanges tests add over the admin API (`TreeService+runtime.swift`), which a reload
/// keeps.
public final class TreeService: Sendable {
    /// What requests are answered from: the tree, and the runtime exchanges (nil while there are none),
    /// swapped together so that a request sees one state of both.
    public struct Served: Sendable {
        public let tree: ServingTree
        public let runtime: RuntimeRoutes?
    }

    public enum ReloadOutcome: Sendable {
        case reloaded(exchanges: Int)
        /// The tree had errors; the last good tree stays in service.
        case failed(Diagnostics)
    }

    /// Told when a reload starts and when it ends (with what is served then), for systemd's status.
    public struct ReloadObserver: Sendable {
        public let started: @Sendable () -> Void
        public let ended: @Sendable (_ exchanges: Int) -> Void

        public init(started: @escaping @Sendable () -> Void, ended: @escaping @Sendable (_ exchanges: Int) -> Void) {
            self.started = started
            self.ended = ended
        }
    }

    public let configuration: ServerConfiguration
    public let counters: CallCounters
    /// The default session's pan-request cache (doc/scripts.md): lives as long as the server, across reloads.
    public let cache = PanRequestCache()
    /// The named sessions (doc/faults-and-sessions.md), each with its own counters and cache; the default session is `counters`
    /// and `cache` above.
    public let sessions: Sessions
    let loader: TreeLoader
    private let logger: Logger
    private let observer: ReloadObserver?
    private let current: Locked<Served>
    /// The runtime exchanges and the next id, changed one change at a time (adding, removing, installing a
    /// tree); `current` is set inside it.
    let runtimeState = Locked(RuntimeState())
    /// Held for a whole reload: one runs at a time, whatever asked for it (file changes, SIGHUP, the admin API).
    /// Its value is unused; not `()`: the thread sanitizer reports the accesses to a zero-sized value as races.
    private let reloading = Locked(false)

    /// Serves `tree` at once; its small files are read by `ServingTree.readFilesAhead()`, which the server
    /// calls once it answers.
    public init(
        tree: ExchangeTree, configuration: ServerConfiguration, loader: TreeLoader,
        counters: CallCounters = CallCounters(),
        logger: Logger, observer: ReloadObserver? = nil
    ) {
        self.configuration = configuration
        self.counters = counters
        sessions = Sessions(capacity: configuration.maxSessions)
        self.loader = loader
        self.logger = logger
        self.observer = observer
        current = Locked(
            Served(tree: ServingTree(tree, counters: counters, configuration: configuration), runtime: nil))
    }

    /// The cache of the session named `name` (nil: the default session's); nil for a session not kept.
    public func cache(ofSession name: String?) -> PanRequestCache? {
        guard let name else { return cache }
        return sessions.existing(named: name)?.cache
    }

    /// The tree requests are answered from right now. Any thread.
    public var tree: ServingTree { current.withLock { $0.tree } }

    /// The tree and the runtime exchanges requests are answered from right now, read together. Any thread.
    public var served: Served { current.withLock { $0 } }

    /// Puts `tree` in service in one step, the runtime exchanges kept. Returns once its small files are read.
    public func install(_ tree: ExchangeTree) {
        let serving = ServingTree(tree, counters: counters, configuration: configuration)
        runtimeState.withLock { state in
            current.withLock { $0 = Served(tree: serving, runtime: $0.runtime) }
            retainCounters(tree: tree.exchanges, runtime: state.exchanges)
        }
        serving.readFilesAhead()
    }

    /// Publishes `runtime` beside the tree in service. Called inside `runtimeState`'s lock.
    func publish(_ runtime: RuntimeRoutes?) {
        current.withLock { $0 = Served(tree: $0.tree, runtime: runtime) }
    }

    /// Forgets the counters of exchanges neither in the tree nor among the runtime ones, in every session.
    func retainCounters(tree: [Exchange], runtime: [RuntimeExchange]) {
        let exchanges = runtime.isEmpty ? tree : tree + runtime.map(\.exchange)
        counters.retain(only: exchanges)
        sessions.retain(only: exchanges)
    }

    /// Reads the requests folder again and, when it has no errors, installs it. Errors are logged in the
    /// same `PATH:LINE:COLUMN: error:` form as at start-up. Blocks the calling thread for the load.
    @discardableResult
    public func reload(reason: String) -> ReloadOutcome {
        reloading.withLock { _ in
            observer?.started()
            let (tree, diagnostics) = loader.load(folder: configuration.requestsFolder)
            for warning in diagnostics.warnings { logger.warning("\(warning.description)") }
            guard let tree else {
                for error in diagnostics.errors { logger.error("\(error.description)") }
                logger.error("reload (\(reason)) failed with \(diagnostics.summary); still serving the last good tree")
                observer?.ended(self.tree.exchangeTree.exchanges.count)
                return .failed(diagnostics)
            }
            install(tree)
            logger.notice("reloaded (\(reason)): serving \(tree.exchanges.count) exchanges")
            observer?.ended(tree.exchanges.count)
            return .reloaded(exchanges: tree.exchanges.count)
        }
    }
}
