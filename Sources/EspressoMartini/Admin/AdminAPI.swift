/// The admin API under `/__espressomartini` (doc/admin-api.md): health, exchanges with live call counts, reset, reload,
/// the request journal, counting and finding requests, and explanations (doc/command-line.md). A decision maker of its own:
/// JSON in and out, never journaled, never delayed.
public struct AdminAPI: Sendable {
    private struct Endpoint: Sendable {
        let allowed: [HTTPMethod]
        let answer: @Sendable (AdminAPI, Request, ServingTree, Decider) -> GeneratedAnswer
    }

    private static let endpoints: [String: Endpoint] = [
        "health": Endpoint(allowed: [.get, .head]) { api, _, tree, _ in api.health(tree) },
        "exchanges": Endpoint(allowed: [.get, .head, .post, .delete]) { api, request, tree, _ in
            switch request.knownMethod {
            case .post: api.addExchange(request)
            case .delete: api.removeExchanges(request)
            default: api.exchangeList(request, tree)
            }
        },
        "exchanges/{id}": Endpoint(allowed: [.delete]) { api, request, _, _ in api.removeExchange(request) },
        "reset": Endpoint(allowed: [.post]) { api, request, tree, _ in api.reset(request, tree) },
        "reload": Endpoint(allowed: [.post]) { api, _, _, _ in api.reload() },
        "requests": Endpoint(allowed: [.get, .head, .delete]) { api, request, tree, decider in
            api.requests(request, tree, decider)
        },
        "requests/count": Endpoint(allowed: [.post]) { api, request, _, decider in api.count(request, decider) },
        "requests/find": Endpoint(allowed: [.post]) { api, request, tree, decider in api.find(request, tree, decider) },
        "requests/verify": Endpoint(allowed: [.post]) { api, request, _, decider in api.verify(request, decider) },
        "explain": Endpoint(allowed: [.get, .head]) { api, request, tree, decider in api.explain(request, tree, decider)
        },
        "cache": Endpoint(allowed: [.get, .head, .delete]) { api, request, _, _ in api.cache(request) },
    ]

    let service: TreeService
    let journal: RequestJournal
    let globalHeaders: [HTTPHeader]

    public init(service: TreeService, journal: RequestJournal) {
        self.service = service
        self.journal = journal
        globalHeaders = service.configuration.headers
    }

    /// The answer to a request whose path starts with the admin prefix; `decider` plans the requests it
    /// explains. `reload` blocks for the load.
    public func answer(_ request: Request, tree: ServingTree, decider: Decider) -> GeneratedAnswer {
        let segments = request.segments.segments
        guard let endpoint = Self.endpoints[Self.endpointName(segments)] else {
            let known = Self.endpoints.keys.sorted().joined(separator: ", ")
            return .error(
                404, "no admin endpoint /\(segments.joined(separator: "/")); known: \(known)",
                globalHeaders: globalHeaders)
        }
        guard let method = request.knownMethod, endpoint.allowed.contains(method) else {
            let allow = HTTPHeader(name: "Allow", value: endpoint.allowed.map(\.name).joined(separator: ", "))
            return .error(
                405, "use \(allow.value) for /\(segments.joined(separator: "/"))", extraHeaders: [allow],
                globalHeaders: globalHeaders)
        }
        return endpoint.answer(self, request, tree, decider)
    }

    /// The methods the admin endpoint `request` names answers; nil for a path that names none.
    func allowedMethods(for request: Request) -> [HTTPMethod]? {
        Self.endpoints[Self.endpointName(request.segments.segments)]?.allowed
    }

    /// `requests/count` for `/__espressomartini/requests/count`; `exchanges/{id}` for
    /// `/__espressomartini/exchanges/r3`.
    private static func endpointName(_ segments: [String]) -> String {
        if segments.count == 3, segments[1] == "exchanges" { return "exchanges/{id}" }
        return segments.dropFirst().joined(separator: "/")
    }

    private func health(_ tree: ServingTree) -> GeneratedAnswer {
        .json(
            200,
            .object([
                JSONMember(key: "status", value: .string("ok")),
                JSONMember(key: "exchanges", value: .integer(Int64(tree.exchangeTree.exchanges.count))),
                JSONMember(key: "runtime_exchanges", value: .integer(Int64(service.runtimeExchanges.count))),
            ]), globalHeaders: globalHeaders)
    }

    /// `?session=NAME`: the session named, or nil for the default one (no such parameter).
    static func sessionName(_ request: Request) -> String? {
        request.queryParameters.first(named: "session")
    }

    /// The tree's exchanges (`"source": "tree"`), then the runtime ones (`"source": "runtime"`, `id`,
    /// `session`), oldest first. With `?session=NAME`, that session's counts (0 for what it never called,
    /// and for a session not kept), and of the runtime exchanges only those its requests see.
    private func exchangeList(_ request: Request, _ tree: ServingTree) -> GeneratedAnswer {
        let named = Self.sessionName(request)
        let session = named.flatMap { service.sessions.existing(named: $0) }
        func calls(_ exchange: Exchange, _ variant: Int) -> Int {
            guard named != nil else { return service.counters.existing(for: exchange.counterKey(variant))?.value ?? 0 }
            return session?.calls(for: exchange.counterKey(variant)) ?? 0
        }
        var list = tree.exchangeTree.exchanges.enumerated().map { index, exchange in
            Self.listing(exchange, source: [JSONMember(key: "folder", value: .string(exchange.folder))]) { variant in
                named == nil ? tree.counter(exchangeAt: index, variant: variant).value : calls(exchange, variant)
            }
        }
        for runtime in service.runtimeExchanges where named == nil || runtime.session == nil || runtime.session == named
        {
            let source = [
                JSONMember(key: "id", value: .string(runtime.id)),
                JSONMember(key: "session", value: runtime.session.map(JSONValue.string) ?? .null),
            ]
            list.append(
                Self.listing(runtime.exchange, source: source) { variant in
                    // A session's runtime exchange counts in that session, whoever lists it.
                    guard named == nil, let own = runtime.session else { return calls(runtime.exchange, variant) }
                    return service.sessions.existing(named: own)?.calls(for: runtime.exchange.counterKey(variant)) ?? 0
                })
        }
        return .json(200, .array(list), globalHeaders: globalHeaders)
    }

    /// One exchange as `GET exchanges` lists it: `source` after its route (a tree's folder; a runtime
    /// exchange's id and session), the calls of each of its counters, and last `"source"`.
    private static func listing(_ exchange: Exchange, source: [JSONMember], calls: (Int) -> Int) -> JSONValue {
        let counts = (0..<exchange.counterCount).map(calls)
        var members =
            [
                JSONMember(key: "method", value: .string(exchange.method.name)),
                JSONMember(key: "route", value: .string(exchange.route.description)),
            ] + source + [
                JSONMember(key: "responses", value: .integer(Int64(exchange.responses.count))),
                JSONMember(key: "calls", value: .integer(Int64(counts.reduce(0, +)))),
            ]
        if !exchange.variants.isEmpty {
            members.append(
                JSONMember(
                    key: "variants",
                    value: .array(
                        zip(exchange.variants, counts).map { variant, calls in
                            .object([
                                JSONMember(key: "when", value: .string(variant.conditions.summary)),
                                JSONMember(key: "responses", value: .integer(Int64(variant.responses.count))),
                                JSONMember(key: "calls", value: .integer(Int64(calls))),
                            ])
                        })))
        }
        members.append(JSONMember(key: "source", value: .string(exchange.runtimeID == 0 ? "tree" : "runtime")))
        return .object(members)
    }

    /// All counters, or with `method=M&route=R` only that exchange's. The route may be spelled as the
    /// folders spell it (`/users/{id}`) or any way that matches the same requests (`/users/*`). With
    /// `session=NAME`, that session's counters (none to reset for a session not kept).
    private func reset(_ request: Request, _ tree: ServingTree) -> GeneratedAnswer {
        let query = request.queryParameters
        let named = query.first(named: "session")
        let session = named.flatMap { service.sessions.existing(named: $0) }
        switch (query.first(named: "method"), query.first(named: "route")) {
        case (nil, nil):
            if named == nil { service.counters.resetAll() } else { session?.resetAll() }
            return .empty(204, globalHeaders: globalHeaders)
        case (let method?, let route?):
            // The tree's exchange and the runtime ones with that method and route, each with its own counters.
            let pattern = RoutePattern(parsing: route)
            let matching = (tree.exchangeTree.exchanges + service.runtimeExchanges.map(\.exchange)).filter {
                $0.method.name == method.uppercased() && $0.route.matchesSameRequests(as: pattern)
            }
            guard !matching.isEmpty else {
                return .error(404, "no exchange \(method.uppercased()) \(route) to reset", globalHeaders: globalHeaders)
            }
            for exchange in matching {
                for variant in 0..<exchange.counterCount {
                    let key = exchange.counterKey(variant)
                    if named == nil {
                        service.counters.existing(for: key)?.reset()
                    } else {
                        session?.existingCounter(for: key)?.reset()
                    }
                }
            }
            return .empty(204, globalHeaders: globalHeaders)
        default:
            return .error(
                400, "give both 'method' and 'route' to reset one exchange, or neither to reset all",
                globalHeaders: globalHeaders)
        }
    }

    private func reload() -> GeneratedAnswer {
        switch service.reload(reason: "admin API") {
        case .reloaded(let exchanges):
            return .json(
                200, .object([JSONMember(key: "exchanges", value: .integer(Int64(exchanges)))]),
                globalHeaders: globalHeaders)
        case .failed(let diagnostics):
            let errors = diagnostics.errors.map { JSONValue.string($0.description) }
            return .json(422, .object([JSONMember(key: "errors", value: .array(errors))]), globalHeaders: globalHeaders)
        }
    }

    /// The default session's cache; with `session=NAME`, that session's (empty for a session not kept).
    private func cache(_ request: Request) -> GeneratedAnswer {
        let cache = service.cache(ofSession: Self.sessionName(request))
        if request.knownMethod == .delete {
            cache?.removeAll()
            return .empty(204, globalHeaders: globalHeaders)
        }
        return .json(200, cache?.snapshot ?? .object([]), globalHeaders: globalHeaders)
    }

    /// `explain?method=M&path=P` (P a path with its own percent-encoded query, as on a request line): what
    /// the tree in service would answer, with its live counters, the admin request's headers standing for
    /// the explained request's, and no body. The same JSON as `explain --json`. The counters are those of the
    /// session `?session=NAME` names, else of the one the admin request's session header names, else the
    /// default session's; a session not kept has all its counters at 0.
    private func explain(_ request: Request, _ tree: ServingTree, _ decider: Decider) -> GeneratedAnswer {
        let query = request.queryParameters
        guard let method = query.first(named: "method"), let path = query.first(named: "path") else {
            return .error(
                400, "give 'method' and 'path': explain?method=GET&path=/users/42", globalHeaders: globalHeaders)
        }
        let target = RequestTarget(path)
        var explained = Request(
            method: method, path: target.path, segments: target.segments, rawQuery: target.rawQuery,
            headers: request.headers, body: nil)
        explained.session =
            Self.sessionName(request).map { service.sessions.existing(named: $0) ?? Session(name: $0) }
            ?? request.session
        explained.client = request.client
        explained.runtime = request.runtime
        return .json(
            200, Explanation(explaining: explained, in: tree, decider: decider).json, globalHeaders: globalHeaders)
    }
}
