/// Decides every answer, in two steps. `plan` is pure: what is refused (a session header naming no session,
/// a client the admin API does not let in), `400` for dot segments, the admin API, then the tree (most
/// specific route first, the first variant whose conditions hold, `405`, a CORS preflight or `404` when none
/// answers; with a proxy, a miss is forwarded) and where the chosen sequence stands; it moves nothing, and
/// `explain` reports it as it is. The server plans at a request's headers (`plan(atHeaders:tree:)`), and once
/// its body is in when its exchange reads it. `commit` carries a plan out: the call counter steps (one atomic step), a template renders,
/// the delay is drawn, and the `Decision` says what the sender puts on the wire. A class: the server calls
/// it for every request, and a struct holding existentials would be copied at each call.
public final class Decider: Sendable {
    /// The admin API's path prefix (doc/admin-api.md), as the request's first segment.
    public static let adminPrefix: StaticString = "__espressomartini"

    private let globalHeaders: [HTTPHeader]
    /// Whether the admin prefix is the admin API's (`"admin": true`); else its paths are routed like any other.
    private let reservesAdminPrefix: Bool
    /// Answers the admin API; nil where nothing is served (`explain` on the command line).
    private let admin: AdminAPI?
    /// Reads request bodies as JSON for the conditions and templates that ask.
    let parser: any JSONParser
    /// What templates and scripts see beside the request.
    public let templates: TemplateEnvironment
    /// `"cors": true`: an `OPTIONS` preflight to a route without an `OPTIONS` exchange gets a `204`.
    private let cors: Bool
    /// `"proxy"`: what the tree does not answer (or everything) goes to its target.
    public let proxy: ProxyConfiguration?
    /// The proxy's `forwards`, and the job of every forwarded request: read per request without copying
    /// `proxy`.
    private let forwarding: ProxyConfiguration.Forwarding?
    private let forwardJob: ForwardJob?
    /// Who may use the admin API.
    private let adminAccess: AdminAccessRule

    public init(
        configuration: ServerConfiguration, admin: AdminAPI?, parser: any JSONParser,
        templates: TemplateEnvironment = TemplateEnvironment()
    ) {
        globalHeaders = configuration.headers
        cors = configuration.cors
        reservesAdminPrefix = configuration.admin
        proxy = configuration.proxy
        forwarding = configuration.proxy?.forwards
        forwardJob = configuration.proxy.map { ForwardJob(target: $0.target, records: $0.records) }
        adminAccess = AdminAccessRule(access: configuration.adminAccess, token: configuration.adminToken)
        self.admin = admin
        self.parser = parser
        self.templates = templates
    }

    /// The answer to `request` from `tree`, with the counters of `request.session` (the default session's
    /// without): `commit(plan(…))`. The caller must carry out the decision it gets (a request decided is a
    /// call counted).
    public func decide(_ request: Request, tree: ServingTree) -> Decision {
        commit(plan(request, tree: tree), for: request, tree: tree)
    }

    /// What `request` would get from `tree` now, with the counters of `request.session`. Moves nothing.
    /// `route`, when given, is what `tree.exchangeTree.resolve` gave for the request (the server looked it
    /// up at the request's headers, `plan(atHeaders:tree:)`).
    public func plan(_ request: Request, tree: ServingTree, route: ResolvedRoute? = nil) -> Plan {
        switch before(request) {
        case .planned(let plan): return plan
        case .admin: return admin(request)
        case .tree: return planFromTree(request, route: route ?? resolve(request, in: tree), tree: tree)
        }
    }

    /// The route `request` takes over `tree` and the runtime exchanges it sees (`request.runtime`).
    @inline(__always)
    func resolve(_ request: Request, in tree: ServingTree) -> ResolvedRoute {
        if let runtime = request.runtime,
            let route = runtime.resolve(
                request.segments, method: request.knownMethod, session: request.session, base: tree.exchangeTree)
        {
            return route
        }
        return ResolvedRoute(tree.exchangeTree.resolve(request.segments, method: request.knownMethod))
    }

    /// What the server does with `request` once its headers are in, before its body: `plan`'s answer when
    /// the body does not matter to it, else that the plan waits for the body. Moves nothing.
    public func plan(atHeaders request: Request, tree: ServingTree) -> HeadersPlan {
        switch before(request) {
        case .planned(let plan): return .decided(plan)
        case .admin: return .admin
        case .tree: break
        }
        let route = resolve(request, in: tree)
        if case .exchange(let index) = route.match {
            let source = route.overlay ?? tree
            if source.readsBodies, source.exchangeTree.exchanges[index].readsBody { return .awaitsBody(route) }
        }
        return .decided(planFromTree(request, route: route, tree: tree))
    }

    /// What is decided before the tree is looked at.
    private enum Before {
        case planned(Plan)
        case admin
        case tree
    }

    /// A session header naming no session, dot segments, the admin prefix, and with `record` everything
    /// else: decided before the tree is looked at, in that order.
    @inline(__always)
    private func before(_ request: Request) -> Before {
        if let reason = request.sessionRefusal {
            return .planned(.refused(Refusal(.sessionHeader, status: 400, message: reason)))
        }
        let segments = request.segments
        if segments.hasDotSegment { return .planned(.dotSegment) }
        if reservesAdminPrefix, segments.startsWith(segment: Self.adminPrefix) { return .admin }
        if forwarding == .everything { return .planned(.forward(miss: nil)) }
        return .tree
    }

    /// The admin API, or the refusal its access rules give (a CORS preflight is answered whoever asks).
    private func admin(_ request: Request) -> Plan {
        if cors, CORSPreflight.isPreflight(request), admin?.allowedMethods(for: request) != nil { return .admin }
        if let refusal = adminAccess.refusal(of: request) { return .refused(refusal) }
        return .admin
    }

    /// What the tree answers: an exchange (and variant), `405`, a CORS preflight or `404`; with a proxy, what
    /// it does not answer is forwarded. Inlined, so that a request plans as fast as it would without this
    /// function.
    @inline(__always)
    private func planFromTree(_ request: Request, route: ResolvedRoute, tree: ServingTree) -> Plan {
        let plan = treeAnswer(request, route: route, tree: tree)
        guard forwarding != nil else { return plan }
        switch plan {
        case .notFound, .methodNotAllowed, .noVariant: return .forward(miss: plan)
        default: return plan
        }
    }

    @inline(__always)
    private func treeAnswer(_ request: Request, route: ResolvedRoute, tree: ServingTree) -> Plan {
        switch route.match {
        case .exchange(let index):
            let source = route.overlay ?? tree
            let exchange = source.exchangeTree.exchanges[index]
            guard !exchange.variants.isEmpty else {
                return .exchange(
                    choice(exchange, at: index, variant: nil, model: nil, request: request, in: source, route.overlay))
            }
            let model = RequestModel(request, route: exchange.route, parser: parser)
            guard let variant = exchange.variants.firstIndex(where: { $0.conditions.holds(for: model) }) else {
                return .noVariant(exchange: index, model: model, overlay: route.overlay)
            }
            return .exchange(
                choice(exchange, at: index, variant: variant, model: model, request: request, in: source, route.overlay)
            )
        case .methodNotAllowed(let methods):
            // Only a route without an OPTIONS exchange gets here: an OPTIONS exchange of the tree answers itself.
            return cors && CORSPreflight.isPreflight(request) ? .preflight(methods) : .methodNotAllowed(methods)
        case .notFound:
            return .notFound
        }
    }

    /// The exchange's counter for the request's session and where its sequence stands; `tree` is the one
    /// the exchange is in (`overlay`, or the tree in service).
    private func choice(
        _ exchange: Exchange, at index: Int, variant: Int?, model: RequestModel?, request: Request,
        in tree: ServingTree,
        _ overlay: ServingTree?
    ) -> ExchangeChoice {
        let counter =
            request.session.map { $0.existingCounter(for: exchange.counterKey(variant ?? 0)) }
            ?? tree.counter(exchangeAt: index, variant: variant ?? 0)
        let calls = counter?.value ?? 0
        let responses = exchange.sequenceResponses(variant: variant)
        let position = exchange.sequenceMode(variant: variant).position(forCall: calls, count: responses.count).map {
            responses.lowerBound + $0
        }
        return ExchangeChoice(
            exchange: index, overlay: overlay, variant: variant, counter: counter, calls: calls, position: position,
            model: model)
    }

    /// Carries out `plan` (made by `plan` for the same request and tree): an exchange's counter steps, in
    /// one atomic step that gives this call its own position whatever the plan saw.
    public func commit(_ plan: Plan, for request: Request, tree: ServingTree) -> Decision {
        switch plan {
        case .exchange(let choice):
            return commit(choice, for: request, tree: choice.overlay ?? tree)
        case .noVariant(let index, let model, let overlay):
            return .generated(
                noVariant((overlay ?? tree).exchangeTree.exchanges[index], model: model, request: request))
        case .methodNotAllowed(let methods):
            let allow = HTTPHeader(name: "Allow", value: methods.map(\.name).joined(separator: ", "))
            let message = "no \(request.method) exchange for \(request.path); allowed: \(allow.value)"
            return .generated(.error(405, message, extraHeaders: [allow], globalHeaders: globalHeaders))
        case .preflight(let methods):
            return .generated(CORSPreflight.answer(request, allowing: methods, globalHeaders: globalHeaders))
        case .notFound:
            let closest = Self.closest(to: request, in: tree).map { "\($0.method.name) \($0.route)" }
            return .generated(
                .json(
                    404,
                    .object([
                        JSONMember(key: "error", value: .string("no exchange for \(request.method) \(request.path)")),
                        JSONMember(key: "closest", value: .array(closest.map(JSONValue.string))),
                    ]), globalHeaders: globalHeaders))
        case .dotSegment:
            return .generated(
                .error(400, "the path \(request.path) has a '.' or '..' segment", globalHeaders: globalHeaders))
        case .refused(let refusal):
            let answer = GeneratedAnswer.error(
                refusal.status, refusal.message, extraHeaders: refusal.headers, globalHeaders: globalHeaders)
            // Admin requests are never journaled, refused or not.
            return refusal.reason == .adminAccess ? .admin(answer) : .generated(answer)
        case .admin:
            guard let admin else {
                return .generated(.error(404, "the admin API is not served here", globalHeaders: globalHeaders))
            }
            if cors, CORSPreflight.isPreflight(request), let methods = admin.allowedMethods(for: request) {
                return .admin(CORSPreflight.answer(request, allowing: methods, globalHeaders: globalHeaders))
            }
            return .admin(admin.answer(request, tree: tree, decider: self))
        case .forward:
            guard let forwardJob else { preconditionFailure("a forward planned without a proxy") }
            return .forward(forwardJob)
        }
    }

    private func commit(_ choice: ExchangeChoice, for request: Request, tree: ServingTree) -> Decision {
        let index = choice.exchange, exchange = tree.exchangeTree.exchanges[index]
        let counter = choice.counter ?? request.session!.counter(for: exchange.counterKey(choice.variant ?? 0))
        let responses = exchange.sequenceResponses(variant: choice.variant)
        let (call, step) = counter.step(
            responseCount: responses.count, mode: exchange.sequenceMode(variant: choice.variant))
        guard let step else { return .generated(sequenceOver(exchange, variant: choice.variant)) }
        let answer = ExchangeAnswer(
            tree: tree, exchangeIndex: index, position: responses.lowerBound + step, variant: choice.variant, call: call
        )
        let sending = tree.sendingPlan(answer.slot)
        let decision: Decision
        switch sending.kind {
        case .prebuilt, .fromDisk:
            decision = .prebuilt(answer)
        case .fault:
            decision = .fault(answer.response.fault!, answer)
        case .template:
            decision = .rendered(
                answer,
                rendering(answer, model: choice.model ?? model(of: request, answer: answer), session: request.session))
        case .script:
            let job = ScriptJob(
                answer: answer, script: answer.response.script!,
                model: choice.model ?? model(of: request, answer: answer),
                cache: request.session?.cache ?? templates.cache, templates: templates
            )
            decision = .script(job)
        case .stream:
            decision = .stream(streaming(answer, model: choice.model, request: request))
        }
        let delay = sending.hasOwnDelay ? answer.response.delay!.seconds : tree.globalDelay
        if sending.isSlowed { return slowed(decision, delay: delay, answer: answer, sending: sending) }
        return delay > 0 ? .delayed(seconds: delay, decision) : decision
    }

    /// `decision` on a slow network: its body no faster than the bandwidth (a fault breaks at full speed),
    /// after the latency on top of `delay`.
    private func slowed(_ decision: Decision, delay: Double, answer: ExchangeAnswer, sending: SendingPlan) -> Decision {
        guard let network = answer.tree.network(answer.slot) else {
            return delay > 0 ? .delayed(seconds: delay, decision) : decision
        }
        var slowed = decision
        if let rate = network.bytesPerSecond, sending.kind != .fault {
            slowed = .throttled(bytesPerSecond: rate, decision)
        }
        let wait = delay + network.latency
        return wait > 0 ? .delayed(seconds: wait, slowed) : slowed
    }

    /// A stream decided for one request: its headers (rendered, for a template), and what its chunks'
    /// templates will see.
    private func streaming(_ answer: ExchangeAnswer, model: RequestModel?, request: Request) -> StreamAnswer {
        guard case .stream(let content, let stream, let template) = answer.response.kind else {
            preconditionFailure("a stream's sending plan without a stream")
        }
        var own = content.headers
        var templates: StreamAnswer.Templates?
        if let template {
            let model = model ?? self.model(of: request, answer: answer)
            own = template.renderedHeaders(
                ResponseTemplateContext(
                    model: model, call: answer.call, cache: request.session?.cache, environment: self.templates))
            templates = StreamAnswer.Templates(model: model, cache: request.session?.cache, environment: self.templates)
        }
        let headers = HTTPHeader.merging(own: own, derivedContentType: stream.derivedContentType, global: globalHeaders)
        return StreamAnswer(answer: answer, headers: headers, stream: stream, templates: templates)
    }

    private func model(of request: Request, answer: ExchangeAnswer) -> RequestModel {
        RequestModel(request, route: answer.exchange.route, parser: parser)
    }

    /// A templated response rendered for one request (doc/templates.md): its header values, then the
    /// content type and the global headers as for any response, and its body.
    private func rendering(_ answer: ExchangeAnswer, model: RequestModel, session: Session?) -> GeneratedAnswer {
        guard case .template(let content, let template) = answer.response.kind else {
            preconditionFailure("a template's sending plan without a template")
        }
        let context = ResponseTemplateContext(
            model: model, call: answer.call, cache: session?.cache, environment: templates)
        let headers = content.effectiveHeaders(own: template.renderedHeaders(context), global: globalHeaders)
        return GeneratedAnswer(
            statusCode: UInt32(content.statusCode), headers: headers, body: template.renderedBody(context))
    }

    /// `404` saying, variant by variant, the first condition that failed.
    private func noVariant(_ exchange: Exchange, model: RequestModel, request: Request) -> GeneratedAnswer {
        let mismatches = exchange.variants.enumerated().map { number, variant in
            "variant \(number + 1): " + (variant.conditions.firstMismatch(for: model) ?? "holds")
        }
        return .json(
            404,
            .object([
                JSONMember(
                    key: "error",
                    value: .string(
                        "no variant of \(exchange.method.name) \(exchange.route) answers \(request.method) \(request.path)"
                    )),
                JSONMember(key: "route", value: .string(exchange.route.description)),
                JSONMember(key: "mismatches", value: .array(mismatches.map(JSONValue.string))),
            ]), globalHeaders: globalHeaders)
    }

    /// `410` for a `once` sequence whose responses have all been served.
    private func sequenceOver(_ exchange: Exchange, variant: Int?) -> GeneratedAnswer {
        let which = variant.map { "variant \($0 + 1) of " } ?? ""
        return .json(
            410,
            .object([
                JSONMember(
                    key: "error",
                    value: .string(
                        "the 'once' sequence of \(which)\(exchange.method.name) \(exchange.route) has served all its responses; reset its counter to play it again"
                    )),
                JSONMember(key: "route", value: .string(exchange.route.description)),
            ]), globalHeaders: globalHeaders)
    }

    /// Up to three exchanges, of the tree and of the runtime exchanges `request` sees, whose routes are most
    /// like its path, for a `404`.
    static func closest(to request: Request, in tree: ServingTree) -> [Exchange] {
        let path = request.segments.segments
        guard let runtime = request.runtime else { return tree.exchangeTree.closest(to: path, method: request.method) }
        let exchanges = runtime.visibleExchanges(for: request.session) + tree.exchangeTree.exchanges
        return ExchangeTree.closest(to: path, method: request.method, among: exchanges)
    }
}
