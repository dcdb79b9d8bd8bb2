/// The runtime exchanges in service, as requests see them: a tree of its own for the server-wide ones and
/// one per session that has some. Immutable: every change makes a new one, swapped in with the tree in
/// service (`TreeService.served`), so a request in flight sees all of a change or none of it.
public final class RuntimeRoutes: Sendable {
    /// Every runtime exchange, oldest first.
    public let exchanges: [RuntimeExchange]
    /// The server-wide ones; nil when there are none.
    let everyone: ServingTree?
    /// Each session's own, by session name.
    let bySession: [String: ServingTree]

    /// Makes the trees of `exchanges`: those of the scopes in `changed` (nil stands for server-wide) anew,
    /// the others as `previous` had them, so that a change to one session's leaves the others' counters,
    /// read files and built responses alone.
    init(
        _ exchanges: [RuntimeExchange], previous: RuntimeRoutes?, changed: Set<String?>,
        make: ([Exchange]) -> ServingTree
    ) {
        self.exchanges = exchanges
        var scopes: [String?: [Exchange]] = [:]
        for runtime in exchanges { scopes[runtime.session, default: []].append(runtime.exchange) }
        func tree(_ scope: String?) -> ServingTree? {
            guard let members = scopes[scope] else { return nil }
            let before = scope.map { previous?.bySession[$0] } ?? previous?.everyone
            if !changed.contains(scope), let before { return before }
            // The newest of a scope's exchanges that answer the same requests is the one served.
            var seen = Set<Exchange.Key>()
            return make(members.reversed().filter { seen.insert($0.key).inserted })
        }
        everyone = tree(nil)
        var bySession: [String: ServingTree] = [:]
        for case let name? in scopes.keys { bySession[name] = tree(name) }
        self.bySession = bySession
    }

    /// The runtime exchanges' trees a request of `session` sees: its session's, and the server-wide one.
    @inline(__always)
    func overlays(for session: Session?) -> (own: ServingTree?, everyone: ServingTree?) {
        guard let session, !bySession.isEmpty else { return (nil, everyone) }
        return (bySession[session.name], everyone)
    }

    /// The exchanges a request of `session` sees besides the tree's, its session's first.
    public func visibleExchanges(for session: Session?) -> [Exchange] {
        visibleExchanges(forSessionNamed: session?.name)
    }

    /// The same for the session named `name` (nil: the default session).
    public func visibleExchanges(forSessionNamed name: String?) -> [Exchange] {
        let own = name.flatMap { bySession[$0] }
        return (own?.exchangeTree.exchanges ?? []) + (everyone?.exchangeTree.exchanges ?? [])
    }

    /// The route `path` takes over the runtime exchanges a request of `session` sees and `base`, chosen as
    /// over one tree (doc/matching.md): a literal beats `{x}`, which beats `**`, whichever tree it is in;
    /// between routes that match the same requests, the session's, then the server-wide one, then the
    /// tree's. `HEAD` falls back to `GET`; with no exchange for the method, the methods of every tree make
    /// the `405`. Nil when the request sees no runtime exchange (the tree alone decides).
    public func resolve(
        _ path: RequestPath, method: HTTPMethod?, session: Session?, base: ExchangeTree
    ) -> ResolvedRoute? {
        let (own, everyone) = overlays(for: session)
        guard own != nil || everyone != nil else { return nil }
        func best(_ method: HTTPMethod) -> ResolvedRoute? {
            var found: (index: Int, overlay: ServingTree?, route: RoutePattern)?
            func consider(_ tree: ExchangeTree, overlay: ServingTree?) {
                guard let index = tree.trie.exchange(for: path, method: method) else { return }
                let route = tree.exchanges[index].route
                if let found, !route.isMoreSpecific(than: found.route) { return }
                found = (index, overlay, route)
            }
            if let own { consider(own.exchangeTree, overlay: own) }
            if let everyone { consider(everyone.exchangeTree, overlay: everyone) }
            consider(base, overlay: nil)
            return found.map { ResolvedRoute(.exchange($0.index), overlay: $0.overlay) }
        }
        if let method {
            if let found = best(method) { return found }
            if method == .head, let found = best(.get) { return found }
        }
        var allowed = Set(base.trie.allowedMethods(path))
        for overlay in [own, everyone] {
            if let overlay { allowed.formUnion(overlay.exchangeTree.trie.allowedMethods(path)) }
        }
        guard !allowed.isEmpty else { return ResolvedRoute(.notFound) }
        return ResolvedRoute(.methodNotAllowed(allowed.sorted { $0.rawValue < $1.rawValue }))
    }
}
