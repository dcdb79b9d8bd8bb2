extension AdminAPI {
    /// How much of a `requests/count`, `find` or `verify` body the server reads: what the journal keeps of any body.
    static let filterBodyLimit = JournalEntry.bodyLimit

    /// `GET requests`: the journal, oldest first, filtered by the query (`method`, `path`, `status`,
    /// `unmatched=true`, `session`); with `unmatched=true` each entry also lists the routes most like it.
    /// `DELETE requests`: empties the journal, or with `session=NAME` that session's part.
    func requests(_ request: Request, _ tree: ServingTree, _ decider: Decider) -> GeneratedAnswer {
        let query = request.queryParameters
        if request.knownMethod == .delete {
            if let refusal = sessionOnlyQueryRefusal(
                request,
                {
                    "DELETE requests empties the journal, or one session's part with 'session'; it takes no '\($0)'"
                })
            {
                return refusal
            }
            if let named = Self.sessionName(request) { journal.clear(session: named) } else { journal.clear() }
            return .empty(204, globalHeaders: globalHeaders)
        }
        switch JournalFilter.parse(query: query) {
        case .failure(let problem):
            return .error(400, problem.message, globalHeaders: globalHeaders)
        case .success(let filter):
            let entries = filter.matching(journal.snapshot().parts, parser: decider.parser)
            return .json(200, listing(entries, closestIn: filter.unmatched ? tree : nil), globalHeaders: globalHeaders)
        }
    }

    /// `POST requests/count`: `{"count": N, "complete": BOOL}` for the entries the body's filter matches;
    /// `complete` is false when the journal dropped requests (of that session, with `session=NAME`) since
    /// it was last emptied, so that the count may be short.
    func count(_ request: Request, _ decider: Decider) -> GeneratedAnswer {
        switch postedFilter(request, parser: decider.parser) {
        case .refused(let answer):
            return answer
        case .filter(let filter):
            let snapshot = journal.snapshot(session: filter.session)
            let count = filter.count(in: snapshot.parts, parser: decider.parser)
            return .json(
                200,
                .object([
                    JSONMember(key: "count", value: .integer(Int64(count))),
                    JSONMember(key: "complete", value: .bool(snapshot.complete)),
                ]), globalHeaders: globalHeaders)
        }
    }

    /// `POST requests/find`: the entries the body's filter matches, as `GET requests` lists them.
    func find(_ request: Request, _ tree: ServingTree, _ decider: Decider) -> GeneratedAnswer {
        switch postedFilter(request, parser: decider.parser) {
        case .refused(let answer):
            return answer
        case .filter(let filter):
            let entries = filter.matching(journal.snapshot().parts, parser: decider.parser)
            return .json(200, listing(entries, closestIn: filter.unmatched ? tree : nil), globalHeaders: globalHeaders)
        }
    }

    /// The filter a `requests/count` or `requests/find` body gives, with `?session=NAME`; or the `400`
    /// saying what is wrong (every problem, as a load reports them, positions in the body).
    private func postedFilter(_ request: Request, parser: any JSONParser) -> PostedFilter {
        let body = request.body ?? []
        if let refusal = filterBodyRefusal(request, body: body) { return .refused(refusal) }
        let (parsed, diagnostics) = JournalFilter.parse(body: body, parser: parser)
        guard var filter = parsed else { return .refused(Self.problems(diagnostics, globalHeaders: globalHeaders)) }
        filter.session = Self.sessionName(request)
        return .filter(filter)
    }

    /// The `400` for a query that names another parameter than `session`, `message` saying so of its name;
    /// nil when it names none.
    func sessionOnlyQueryRefusal(_ request: Request, _ message: (String) -> String) -> GeneratedAnswer? {
        guard let other = request.queryParameters.fields.first(where: { $0.name != "session" }) else { return nil }
        return .error(400, message(other.name), globalHeaders: globalHeaders)
    }

    /// The `400` for a query with more than `session`, or the `413` for a body longer than a filter may be;
    /// nil when neither applies.
    func filterBodyRefusal(_ request: Request, body: [UInt8]) -> GeneratedAnswer? {
        if let refusal = sessionOnlyQueryRefusal(
            request,
            {
                "give '\($0)' in the JSON body: {\"method\", \"path\", \"status\", \"unmatched\", \"when\"}; the query takes only 'session'"
            })
        {
            return refusal
        }
        guard request.bodySize <= min(body.count, Self.filterBodyLimit) else {
            let message =
                "the body is \(request.bodySize) bytes; a filter may have \(Self.filterBodyLimit / 1024) KiB at most"
            return .error(413, message, globalHeaders: globalHeaders)
        }
        return nil
    }

    private enum PostedFilter {
        case filter(JournalFilter)
        case refused(GeneratedAnswer)
    }

    /// The entries as JSON; with `tree`, each with `closest`: up to three routes most like its path, of that
    /// tree and of the runtime exchanges its session sees now, as a `404` names them (worked out once per
    /// method, path and session).
    private func listing(_ entries: [JournalEntry], closestIn tree: ServingTree?) -> JSONValue {
        guard let tree else { return .array(entries.map(\.json)) }
        let runtime = service.served.runtime
        var known: [String: JSONValue] = [:]
        return .array(
            entries.map { entry in
                let key = entry.method + " " + entry.path + " " + (entry.session ?? "")
                let closest =
                    known[key]
                    ?? {
                        let exchanges =
                            (runtime?.visibleExchanges(forSessionNamed: entry.session) ?? [])
                            + tree.exchangeTree.exchanges
                        let routes = ExchangeTree.closest(
                            to: entry.segments.segments, method: entry.method, among: exchanges)
                        let value = JSONValue.array(routes.map { .string("\($0.method.name) \($0.route)") })
                        known[key] = value
                        return value
                    }()
                guard case .object(let members) = entry.json else { return entry.json }
                return .object(members + [JSONMember(key: "closest", value: closest)])
            })
    }
}
