/// Decides every answer: the admin API, `400` for dot segments, then the tree (most specific route
/// first, `405` or `404` when none answers), the call counter and the delay. Pure and synchronous: it
/// reads the request, moves one counter and returns; the sender does the rest. A class: the server calls it
/// for every request, and a struct holding an existential would be copied at each call.
public final class Decider: Sendable {
    /// The admin API's path prefix (§5), as the request's first segment.
    public static let adminPrefix: StaticString = "__espressomartini"

    private let globalHeaders: [HTTPHeader]
    /// Nil when the admin API is off: its paths are then routed like any other.
    private let admin: AdminAPI?
    /// Reads request bodies as JSON for the conditions that ask.
    private let parser: any JSONParser

    public init(configuration: ServerConfiguration, admin: AdminAPI?, parser: any JSONParser) {
        globalHeaders = configuration.headers
        self.admin = admin
        self.parser = parser
    }

    /// The answer to `request` from `tree`, with the counters of `request.session` (the default ones
    /// without). An exchange's call counter moves here, in one atomic step, so
    /// the caller must carry out the decision it gets (a request decided is a call counted).
    public func decide(_ request: Request, tree: ServingTree) -> Decision {
        let segments = request.segments
        if segments.hasDotSegment {
            return .generated(.error(400, "the path \(request.path) has a '.' or '..' segment", globalHeaders: globalHeaders))
        }
        if let admin, segments.startsWith(segment: Self.adminPrefix) {
            return .admin(admin.answer(request, tree: tree))
        }
        switch tree.tree.resolve(segments, method: request.knownMethod) {
        case .exchange(let index):
            if tree.hasVariants, case let exchange = tree.tree.exchanges[index], !exchange.variants.isEmpty {
                return decideVariant(request, exchange: exchange, at: index, tree: tree)
            }
            if let session = request.session {
                return delayed(tree.answer(exchangeAt: index, session: session), exchange: tree.tree.exchanges[index])
            }
            return delayed(tree.answer(exchangeAt: index), exchange: tree.tree.exchanges[index])
        case .methodNotAllowed(let methods):
            let allow = HTTPHeader(name: "Allow", value: methods.map(\.name).joined(separator: ", "))
            let message = "no \(request.method) exchange for \(request.path); allowed: \(allow.value)"
            return .generated(.error(405, message, extraHeaders: [allow], globalHeaders: globalHeaders))
        case .notFound:
            let closest = tree.tree.closest(to: segments.segments, method: request.method).map { "\($0.method.name) \($0.route)" }
            return .generated(.json(404, .object([
                JSONMember(key: "error", value: .string("no exchange for \(request.method) \(request.path)")),
                JSONMember(key: "closest", value: .array(closest.map(JSONValue.string))),
            ]), globalHeaders: globalHeaders))
        }
    }

    /// The first variant whose conditions hold answers, its own counter moving; none: a `404` saying,
    /// variant by variant, the first condition that failed.
    private func decideVariant(_ request: Request, exchange: Exchange, at index: Int, tree: ServingTree) -> Decision {
        let model = RequestModel(request, route: exchange.route, parser: parser)
        if let variant = exchange.variants.firstIndex(where: { $0.conditions.holds(for: model) }) {
            let answer = request.session.map { tree.answer(exchangeAt: index, variant: variant, session: $0) } ?? tree.answer(exchangeAt: index, variant: variant)
            return delayed(answer, exchange: exchange, variant: variant)
        }
        let mismatches = exchange.variants.enumerated().map { number, variant in
            "variant \(number + 1): " + (variant.conditions.firstMismatch(for: model) ?? "holds")
        }
        return .generated(.json(404, .object([
            JSONMember(key: "error", value: .string("no variant of \(exchange.method.name) \(exchange.route) answers \(request.method) \(request.path)")),
            JSONMember(key: "route", value: .string(exchange.route.description)),
            JSONMember(key: "mismatches", value: .array(mismatches.map(JSONValue.string))),
        ]), globalHeaders: globalHeaders))
    }

    /// The answer, after its delay; without one (a `once` sequence over), `410` naming the route.
    private func delayed(_ answer: ExchangeAnswer?, exchange: @autoclosure () -> Exchange, variant: Int? = nil) -> Decision {
        guard let answer else { return .generated(sequenceOver(exchange(), variant: variant)) }
        let delay = answer.delay
        return delay > 0 ? .delayed(seconds: delay, .exchange(answer)) : .exchange(answer)
    }

    /// `410` for a `once` sequence whose responses have all been served.
    private func sequenceOver(_ exchange: Exchange, variant: Int?) -> GeneratedAnswer {
        let which = variant.map { "variant \($0 + 1) of " } ?? ""
        return .json(410, .object([
            JSONMember(key: "error", value: .string("the 'once' sequence of \(which)\(exchange.method.name) \(exchange.route) has served all its responses; reset its counter to play it again")),
            JSONMember(key: "route", value: .string(exchange.route.description)),
        ]), globalHeaders: globalHeaders)
    }
}
