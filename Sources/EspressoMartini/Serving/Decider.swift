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
    /// Reads request bodies as JSON for the conditions and templates that ask.
    let parser: any JSONParser
    /// What templates see beside the request.
    let templates: TemplateEnvironment
    /// `"cors": true`: an `OPTIONS` preflight to a route without an `OPTIONS` exchange gets a `204`.
    private let cors: Bool

    public init(configuration: ServerConfiguration, admin: AdminAPI?, parser: any JSONParser, templates: TemplateEnvironment = TemplateEnvironment()) {
        globalHeaders = configuration.headers
        cors = configuration.cors
        self.admin = admin
        self.parser = parser
        self.templates = templates
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
            if cors, let methods = admin.allowedMethods(for: request),
               let preflight = CORSPreflight.answer(request, allowing: methods, globalHeaders: globalHeaders) {
                return .admin(preflight)
            }
            return .admin(admin.answer(request, tree: tree))
        }
        switch tree.tree.resolve(segments, method: request.knownMethod) {
        case .exchange(let index):
            if tree.hasVariants, case let exchange = tree.tree.exchanges[index], !exchange.variants.isEmpty {
                return decideVariant(request, exchange: exchange, at: index, tree: tree)
            }
            let exchange = tree.tree.exchanges[index]
            if let session = request.session {
                return delayed(tree.answer(exchangeAt: index, session: session), of: exchange, for: request, model: nil, tree: tree)
            }
            return delayed(tree.answer(exchangeAt: index), of: exchange, for: request, model: nil, tree: tree)
        case .methodNotAllowed(let methods):
            // Only a route without an OPTIONS exchange gets here: an OPTIONS exchange of the tree answers itself.
            if cors, let preflight = CORSPreflight.answer(request, allowing: methods, globalHeaders: globalHeaders) {
                return .generated(preflight)
            }
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
            return delayed(answer, of: exchange, variant: variant, for: request, model: model, tree: tree)
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

    /// The answer, rendered when the tree has templates (`model` is the variants' request model, if any),
    /// after its delay; without one (a `once` sequence over), `410` naming the route.
    private func delayed(
        _ answer: ExchangeAnswer?, of exchange: @autoclosure () -> Exchange, variant: Int? = nil, for request: Request, model: RequestModel?, tree: ServingTree
    ) -> Decision {
        guard var answer else { return .generated(sequenceOver(exchange(), variant: variant)) }
        if tree.hasTemplates { answer = rendering(answer, for: request, model: model) }
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
