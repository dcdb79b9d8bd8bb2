/// Runtime exchanges (doc/admin-api.md): added, removed and kept across reloads. Each change is made whole
/// and then published beside the tree in one step (`Served`), so that a request in flight sees all of it or
/// none of it; the trees of the scopes a change leaves alone are kept, counters and read files with them.
extension TreeService {
    public enum RuntimeAddition: Sendable {
        /// Added; its warnings, if any.
        case added(RuntimeExchange, Diagnostics)
        /// Not added: the body's problems, positioned in it.
        case refused(Diagnostics)
        /// Not added: `max_runtime_exchanges` are kept already.
        case full(limit: Int)
    }

    /// Adds the exchange `body` declares (`{"method", "route", "configuration"}`), for `session`'s
    /// requests only or (nil) for every request.
    public func addRuntimeExchange(_ body: [UInt8], session: String?) -> RuntimeAddition {
        runtimeState.withLock { state in
            guard state.exchanges.count < configuration.maxRuntimeExchanges else {
                return .full(limit: configuration.maxRuntimeExchanges)
            }
            let base = tree.exchangeTree
            let reader = RuntimeExchangeReader(
                loader: loader, requestsFolder: base.folder, rootRealPath: base.realFolder)
            let (exchange, diagnostics) = reader.read(body, id: state.nextID)
            guard let exchange else { return .refused(diagnostics) }
            state.nextID += 1
            let added = RuntimeExchange(exchange: exchange, session: session)
            change(&state, to: state.exchanges + [added], changed: [session])
            return .added(added, diagnostics)
        }
    }

    /// Removes the runtime exchange numbered `id`; false when there is none.
    public func removeRuntimeExchange(id: Int) -> Bool {
        runtimeState.withLock { state in
            guard let removed = state.exchanges.first(where: { $0.exchange.runtimeID == id }) else { return false }
            change(&state, to: state.exchanges.filter { $0.exchange.runtimeID != id }, changed: [removed.session])
            return true
        }
    }

    /// Removes `session`'s runtime exchanges, or with `allSessions` every runtime exchange.
    public func removeRuntimeExchanges(session: String?, allSessions: Bool) {
        runtimeState.withLock { state in
            let kept = allSessions ? [] : state.exchanges.filter { $0.session != session }
            change(&state, to: kept, changed: Set(state.exchanges.map(\.session)))
        }
    }

    /// The runtime exchanges, oldest first.
    public var runtimeExchanges: [RuntimeExchange] { served.runtime?.exchanges ?? [] }

    /// Makes what requests see of `exchanges` (anew for the scopes in `changed`), publishes it, and forgets
    /// the counters of exchanges gone.
    private func change(_ state: inout RuntimeState, to exchanges: [RuntimeExchange], changed: Set<String?>) {
        let before = state.exchanges
        let base = tree.exchangeTree
        state.routes =
            exchanges.isEmpty
            ? nil
            : RuntimeRoutes(exchanges, previous: state.routes, changed: changed) { members in
                let serving = ServingTree(
                    ExchangeTree(ordering: members, folder: base.folder, realFolder: base.realFolder),
                    counters: counters, configuration: configuration)
                serving.readFilesAhead()
                return serving
            }
        publish(state.routes)
        if exchanges.count < before.count { retainCounters(tree: base.exchanges, runtime: exchanges) }
    }
}
