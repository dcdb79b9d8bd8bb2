/// Why a request would get the answer it gets (doc/command-line.md, `explain`), without answering it: the
/// decider's own `plan` (the exchange, variant and response that would answer, a `405`, a CORS preflight,
/// …), and around it the other routes that match the path and why they lose, each variant's first failing
/// condition, and for a path no route matches the closest routes. Pure: it reads the tree and the counters,
/// and moves nothing.
public struct Explanation: Sendable {
    public let request: Request
    /// The tree the chosen exchange is in: a runtime exchanges' one, or the tree in service.
    public let tree: ExchangeTree
    /// The chosen exchange when it is a runtime one (doc/admin-api.md).
    public let runtimeExchange: RuntimeExchange?
    /// What the server would do, as `Decider.plan` says.
    public let plan: Plan
    /// For an exchange chosen by its route: each of its variants in file order; empty otherwise.
    public let variants: [VariantVerdict]
    /// The routes other than the chosen one that match the path, most specific first (byte-wise among
    /// equals), with their methods and why they do not answer.
    public let otherRoutes: [OtherRoute]
    /// For `notFound` (forwarded or not): up to three exchanges whose routes are most like the path.
    public let closest: [Exchange]
    /// Where the request would be forwarded (`"proxy"`), nil when the tree or the server answers it.
    public let forwardTarget: ProxyTarget?
    /// The network the answer would go out on (the response's, its exchange's or the server's); nil at
    /// full speed.
    public let network: NetworkCondition?

    /// Explains `request` against `tree` with the counters of `request.session` (the default session's
    /// without), as `decider` plans it.
    public init(explaining request: Request, in tree: ServingTree, decider: Decider) {
        self.request = request
        plan = decider.plan(request, tree: tree)
        if case .forward = plan { forwardTarget = decider.proxy?.target } else { forwardTarget = nil }
        let treePlan = Self.treePlan(plan)
        let chosen = treePlan?.overlay ?? tree
        self.tree = chosen.exchangeTree
        runtimeExchange = treePlan.flatMap { plan in
            plan.exchangeIndex.flatMap { index in
                let exchange = chosen.exchangeTree.exchanges[index]
                return request.runtime?.exchanges.first { $0.exchange === exchange }
            }
        }
        variants =
            treePlan.map { Self.verdicts(of: $0, in: chosen.exchangeTree, request: request, parser: decider.parser) }
            ?? []
        closest = if case .notFound = treePlan { Decider.closest(to: request, in: tree) } else { [] }
        let seen = (request.runtime?.visibleExchanges(for: request.session) ?? []) + tree.exchangeTree.exchanges
        otherRoutes =
            treePlan.map {
                Self.otherRoutes(
                    of: request, among: seen, chosen: $0.exchangeIndex.map { chosen.exchangeTree.exchanges[$0] },
                    plan: $0)
            } ?? []
        if case .exchange(let choice) = plan, let position = choice.position {
            network = chosen.network(chosen.slot(exchangeAt: choice.exchange, position: position))
        } else {
            network = nil
        }
    }

    /// What the tree itself would answer: the plan, or for a forwarded request its miss (nil when the tree
    /// is not consulted).
    static func treePlan(_ plan: Plan) -> Plan? {
        if case .forward(let miss) = plan { return miss }
        return plan
    }

    /// Each variant of the chosen exchange: the one that answers holds, those before it fail on their first
    /// failing condition, those after it are not tried.
    private static func verdicts(
        of plan: Plan, in tree: ExchangeTree, request: Request, parser: any JSONParser
    ) -> [VariantVerdict] {
        guard let index = plan.exchangeIndex, case let exchange = tree.exchanges[index], !exchange.variants.isEmpty
        else { return [] }
        var answering: Int?
        let model: RequestModel
        switch plan {
        case .exchange(let choice):
            answering = choice.variant
            model = choice.model ?? RequestModel(request, route: exchange.route, parser: parser)
        case .noVariant(_, let planned, _): model = planned
        default: return []
        }
        return exchange.variants.indices.map { variant in
            if let answering, variant > answering { return .notTried }
            if variant == answering { return .holds }
            return exchange.variants[variant].conditions.firstMismatch(for: model).map(VariantVerdict.fails) ?? .holds
        }
    }

    /// The exchange chosen by its route, answering or not.
    public var exchange: Exchange? {
        plan.exchangeIndex.map { tree.exchanges[$0] }
    }

    /// The choice, when an exchange's sequence answers (or has run out).
    public var choice: ExchangeChoice? {
        if case .exchange(let choice) = plan { return choice }
        return nil
    }

    /// The response that would answer.
    public var response: ConfiguredResponse? {
        guard let choice, let position = choice.position else { return nil }
        return tree.exchanges[choice.exchange].responses[position]
    }

    /// Calls counted so far by the counter that would move (0 where none would).
    public var calls: Int { choice?.calls ?? 0 }

    /// The sequence mode of the sequence that answers (or has run out).
    public var sequenceMode: SequenceMode? {
        choice.map { tree.exchanges[$0.exchange].sequenceMode(variant: $0.variant) }
    }

    /// The response's 0-based position in its sequence (its variant's, with variants), and the sequence's length.
    public var sequencePosition: (index: Int, count: Int)? {
        guard let choice, let position = choice.position else { return nil }
        return tree.exchanges[choice.exchange].sequencePosition(of: position, variant: choice.variant)
    }

    /// Whether an exchange would answer (or the server itself, for a CORS preflight): `explain` exits 0.
    public var isAnswered: Bool {
        switch plan {
        case .exchange(let choice): choice.position != nil
        case .preflight: true
        default: false
        }
    }

    /// The status the request would get; nil for the admin API's answers and a script's.
    public var statusCode: Int? {
        switch plan {
        case .exchange(let choice) where choice.position == nil: 410
        case .exchange: response?.content?.statusCode
        case .noVariant, .notFound: 404
        case .methodNotAllowed: 405
        case .preflight: 204
        case .dotSegment: 400
        case .refused(let refusal): Int(refusal.status)
        case .admin, .forward: nil
        }
    }

    /// Every route but the chosen one that matches the path, grouped by spelling, most specific first.
    /// One that has an exchange for the method searched (`GET` for a `HEAD` answered as `GET`) loses on
    /// precedence; any other lacks the method.
    private static func otherRoutes(
        of request: Request, among exchanges: [Exchange], chosen: Exchange?, plan: Plan
    ) -> [OtherRoute] {
        switch plan {
        case .exchange, .noVariant, .methodNotAllowed, .preflight: break
        case .notFound, .dotSegment, .refused, .admin, .forward: return []
        }
        var routes: [(route: RoutePattern, methods: [HTTPMethod])] = []
        for exchange in exchanges where exchange.route != chosen?.route && exchange.route.matches(request.segments) {
            if let known = routes.firstIndex(where: { $0.route == exchange.route }) {
                if !routes[known].methods.contains(exchange.method) { routes[known].methods.append(exchange.method) }
            } else {
                routes.append((exchange.route, [exchange.method]))
            }
        }
        routes.sort { a, b in
            a.route.isMoreSpecific(than: b.route)
                || (!b.route.isMoreSpecific(than: a.route)
                    && a.route.description.utf8.lexicographicallyPrecedes(b.route.description.utf8))
        }
        return routes.map { route, methods in
            let methods = methods.sorted { $0.rawValue < $1.rawValue }
            guard let chosen, methods.contains(chosen.method) else {
                return OtherRoute(route: route, methods: methods, reason: .noExchangeForMethod)
            }
            let reason: OtherRoute.Reason = route.matchesSameRequests(as: chosen.route) ? .overridden : .lessSpecific
            return OtherRoute(route: route, methods: methods, reason: reason)
        }
    }
}
