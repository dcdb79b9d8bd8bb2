/// Why a request would get the answer it gets (§15), without answering it: the exchange, variant and
/// response that would answer (as `Decider.decide` chooses them), the other routes that match the path
/// and why they lose, each variant's first failing condition, and for a path no route matches the
/// closest routes. Pure: it reads the tree and the counters, and moves nothing.
public struct Explanation: Sendable {
    public let request: Request
    public let tree: ExchangeTree
    public let outcome: Outcome
    /// For an exchange chosen by its route (`exchange`, `noVariant`): each of its variants in file
    /// order; empty otherwise.
    public let variants: [VariantVerdict]
    /// The routes other than the chosen one that match the path, most specific first (byte-wise among
    /// equals), with their methods and why they do not answer.
    public let otherRoutes: [OtherRoute]
    /// For `notFound`: up to three exchanges whose routes are most like the path.
    public let closest: [Exchange]
    /// Calls counted so far by the counter that would move (0 where none would).
    public let calls: Int

    /// Explains `request` against `tree`. `calls(exchange, variant)` reads a counter (variant 0 for an
    /// exchange without variants): the tree in service passes its live ones, the command line every one
    /// at 0. With `adminAPI`, paths under the admin prefix are the admin API's.
    public init(
        explaining request: Request, in tree: ExchangeTree, parser: any JSONParser, adminAPI: Bool,
        calls: (_ exchange: Int, _ variant: Int) -> Int = { _, _ in 0 }
    ) {
        self.request = request
        self.tree = tree
        var variants: [VariantVerdict] = []
        var counted = 0
        let segments = request.segments
        if segments.hasDotSegment {
            outcome = .dotSegment
        } else if adminAPI, segments.startsWith(segment: Decider.adminPrefix) {
            outcome = .adminAPI
        } else {
            switch tree.resolve(segments, method: request.knownMethod) {
            case .exchange(let index):
                let exchange = tree.exchanges[index]
                if exchange.variants.isEmpty {
                    counted = calls(index, 0)
                    outcome = exchange.sequence.position(forCall: counted, count: exchange.responses.count)
                        .map { .exchange(index, variant: nil, response: $0) } ?? .sequenceOver(index, variant: nil)
                } else {
                    let model = RequestModel(request, route: exchange.route, parser: parser)
                    var answering: Int?
                    for variant in exchange.variants {
                        if answering != nil {
                            variants.append(.notTried)
                        } else if let mismatch = variant.conditions.firstMismatch(for: model) {
                            variants.append(.fails(mismatch))
                        } else {
                            answering = variants.count
                            variants.append(.holds)
                        }
                    }
                    if let answering {
                        let chosen = exchange.variants[answering]
                        counted = calls(index, answering)
                        outcome = chosen.sequence.position(forCall: counted, count: chosen.responses.count)
                            .map { .exchange(index, variant: answering, response: chosen.responses.lowerBound + $0) }
                            ?? .sequenceOver(index, variant: answering)
                    } else {
                        outcome = .noVariant(index)
                    }
                }
            case .methodNotAllowed(let methods):
                outcome = .methodNotAllowed(methods)
            case .notFound:
                outcome = .notFound
            }
        }
        self.variants = variants
        self.calls = counted
        closest = outcome == .notFound ? tree.closest(to: segments.segments, method: request.method) : []
        otherRoutes = Self.otherRoutes(of: request, in: tree, outcome: outcome)
    }

    /// Explains `request` against the tree in service, with its live counters; the admin API is on.
    public init(explaining request: Request, in tree: ServingTree, parser: any JSONParser) {
        self.init(explaining: request, in: tree.tree, parser: parser, adminAPI: true) { exchange, variant in
            tree.counter(exchangeAt: exchange, variant: variant).value
        }
    }

    /// The exchange chosen by its route, answering or not.
    public var exchange: Exchange? {
        switch outcome {
        case .exchange(let index, _, _), .noVariant(let index), .sequenceOver(let index, _): tree.exchanges[index]
        default: nil
        }
    }

    /// The response that would answer.
    public var response: ConfiguredResponse? {
        guard case .exchange(let index, _, let position) = outcome else { return nil }
        return tree.exchanges[index].responses[position]
    }

    /// The sequence mode of the sequence that answers (or has run out).
    public var sequenceMode: SequenceMode? {
        switch outcome {
        case .exchange(let index, let variant, _), .sequenceOver(let index, let variant): tree.exchanges[index].sequenceMode(variant: variant)
        default: nil
        }
    }

    /// The response's 0-based position in its sequence (its variant's, with variants), and the sequence's length.
    public var sequencePosition: (index: Int, count: Int)? {
        guard case .exchange(let index, let variant, let position) = outcome else { return nil }
        let exchange = tree.exchanges[index]
        guard let variant else { return (position, exchange.responses.count) }
        let range = exchange.variants[variant].responses
        return (position - range.lowerBound, range.count)
    }

    /// The status the request would get; nil for the admin API's answers.
    public var statusCode: Int? {
        switch outcome {
        case .exchange: response?.statusCode
        case .noVariant, .notFound: 404
        case .sequenceOver: 410
        case .methodNotAllowed: 405
        case .dotSegment: 400
        case .adminAPI: nil
        }
    }

    /// Every route but the chosen one that matches the path, grouped by spelling, most specific first.
    /// One that has an exchange for the method searched (`GET` for a `HEAD` answered as `GET`) loses on
    /// precedence; any other lacks the method.
    private static func otherRoutes(of request: Request, in tree: ExchangeTree, outcome: Outcome) -> [OtherRoute] {
        let chosen: Exchange?
        switch outcome {
        case .exchange(let index, _, _), .noVariant(let index), .sequenceOver(let index, _): chosen = tree.exchanges[index]
        case .methodNotAllowed: chosen = nil
        case .notFound, .dotSegment, .adminAPI: return []
        }
        let path = request.segments.segments
        var routes: [(route: RoutePattern, methods: [HTTPMethod])] = []
        for exchange in tree.exchanges where exchange.route != chosen?.route && exchange.route.matches(path) {
            if let known = routes.firstIndex(where: { $0.route == exchange.route }) {
                routes[known].methods.append(exchange.method)
            } else {
                routes.append((exchange.route, [exchange.method]))
            }
        }
        routes.sort { a, b in
            a.route.isMoreSpecific(than: b.route)
                || (!b.route.isMoreSpecific(than: a.route) && a.route.description.utf8.lexicographicallyPrecedes(b.route.description.utf8))
        }
        return routes.map { route, methods in
            let methods = methods.sorted { $0.rawValue < $1.rawValue }
            let lessSpecific = chosen.map { methods.contains($0.method) } ?? false
            return OtherRoute(route: route, methods: methods, reason: lessSpecific ? .lessSpecific : .noExchangeForMethod)
        }
    }
}
