extension AdminAPI {
    /// The most of an admin request's body the server keeps: a runtime exchange's configuration may be this
    /// large (`413` past it); `requests/count`, `find` and `verify` take what the journal keeps of a body.
    public static let bodyLimit = 1_048_576

    /// `POST exchanges`: adds a runtime exchange, `201 {"id", "method", "route", "session"}` (`warnings`
    /// too when it has some); `400` with every problem positioned in the body, `413`, `429` past
    /// `max_runtime_exchanges`.
    func addExchange(_ request: Request) -> GeneratedAnswer {
        if let refusal = sessionOnlyQueryRefusal(
            request,
            {
                "POST exchanges takes only 'session' in its query, not '\($0)'; the rest goes in the body"
            })
        {
            return refusal
        }
        let body = request.body ?? []
        guard request.bodySize <= body.count, body.count <= Self.bodyLimit else {
            let message =
                "the body is \(request.bodySize) bytes; a runtime exchange may have \(Self.bodyLimit / 1_048_576) MiB at most (name a file of the requests folder for a larger body)"
            return .error(413, message, globalHeaders: globalHeaders)
        }
        let session = Self.sessionName(request)
        switch service.addRuntimeExchange(body, session: session) {
        case .full(let limit):
            return .error(
                429,
                "\(limit) runtime exchanges are kept, as many as 'max_runtime_exchanges' in the server configuration allows; remove some (DELETE /\(Decider.adminPrefix)/exchanges) or raise it",
                globalHeaders: globalHeaders)
        case .refused(let diagnostics):
            return Self.problems(diagnostics, globalHeaders: globalHeaders)
        case .added(let runtime, let diagnostics):
            var members = [
                JSONMember(key: "id", value: .string(runtime.id)),
                JSONMember(key: "method", value: .string(runtime.exchange.method.name)),
                JSONMember(key: "route", value: .string(runtime.exchange.route.description)),
                JSONMember(key: "session", value: session.map(JSONValue.string) ?? .null),
            ]
            if !diagnostics.warnings.isEmpty {
                members.append(
                    JSONMember(
                        key: "warnings", value: .array(diagnostics.warnings.map { .string($0.description) })))
            }
            let location = HTTPHeader(name: "Location", value: "/\(Decider.adminPrefix)/exchanges/\(runtime.id)")
            return .json(201, .object(members), extraHeaders: [location], globalHeaders: globalHeaders)
        }
    }

    /// `DELETE exchanges`: every runtime exchange, or with `?session=NAME` that session's. `204`.
    func removeExchanges(_ request: Request) -> GeneratedAnswer {
        if let refusal = sessionOnlyQueryRefusal(
            request,
            {
                "DELETE exchanges removes every runtime exchange, or one session's with 'session'; it takes no '\($0)'"
            })
        {
            return refusal
        }
        let session = Self.sessionName(request)
        service.removeRuntimeExchanges(session: session, allSessions: session == nil)
        return .empty(204, globalHeaders: globalHeaders)
    }

    /// `DELETE exchanges/ID`: `204`, or `404` for an id no runtime exchange has.
    func removeExchange(_ request: Request) -> GeneratedAnswer {
        let id = request.segments.segments[2]
        guard let number = RuntimeExchange.number(ofID: id), service.removeRuntimeExchange(id: number) else {
            let known = service.runtimeExchanges.map(\.id)
            let list = known.isEmpty ? "there are none" : "known: " + known.prefix(20).joined(separator: ", ")
            return .error(404, "no runtime exchange \(id); \(list)", globalHeaders: globalHeaders)
        }
        return .empty(204, globalHeaders: globalHeaders)
    }

    /// `POST requests/verify`: whether as many requests as `count` says match the body's filter,
    /// `{"holds", "count", "complete", "expected", "message", "closest": [{"method", "path", "mismatch"}]}`,
    /// `closest` the requests most like it that fail it, each with its first failing part (when it does
    /// not hold).
    func verify(_ request: Request, _ decider: Decider) -> GeneratedAnswer {
        let body = request.body ?? []
        if let refusal = filterBodyRefusal(request, body: body) { return refusal }
        let (parsed, expected, diagnostics) = JournalFilter.parse(verifyBody: body, parser: decider.parser)
        guard var filter = parsed else { return Self.problems(diagnostics, globalHeaders: globalHeaders) }
        filter.session = Self.sessionName(request)
        let snapshot = journal.snapshot(session: filter.session)
        let count = filter.count(in: snapshot.parts, parser: decider.parser)
        let holds = expected.holds(for: count)
        let closest = holds ? [] : filter.nearMisses(in: snapshot.parts, parser: decider.parser)
        let verification = Verification(
            filter: filter, expected: expected, count: count, complete: snapshot.complete, closest: closest)
        return .json(
            200,
            .object([
                JSONMember(key: "holds", value: .bool(holds)),
                JSONMember(key: "count", value: .integer(Int64(count))),
                JSONMember(key: "complete", value: .bool(snapshot.complete)),
                JSONMember(key: "expected", value: .string(expected.description)),
                JSONMember(key: "message", value: .string(verification.message)),
                JSONMember(
                    key: "closest",
                    value: .array(
                        closest.map {
                            .object([
                                JSONMember(key: "method", value: .string($0.entry.method)),
                                JSONMember(key: "path", value: .string($0.entry.path)),
                                JSONMember(key: "query", value: .string($0.entry.query)),
                                JSONMember(key: "mismatch", value: .string($0.mismatch)),
                            ])
                        })),
            ]), globalHeaders: globalHeaders)
    }

    /// `400 {"error": FIRST, "errors": [...]}`: every problem of a posted body, positioned in it, and its
    /// `warnings` when it has some.
    static func problems(_ diagnostics: Diagnostics, globalHeaders: [HTTPHeader]) -> GeneratedAnswer {
        let errors = diagnostics.errors.map(\.description)
        var members = [
            JSONMember(key: "error", value: .string(errors.first ?? "the body has errors")),
            JSONMember(key: "errors", value: .array(errors.map(JSONValue.string))),
        ]
        if !diagnostics.warnings.isEmpty {
            members.append(
                JSONMember(key: "warnings", value: .array(diagnostics.warnings.map { .string($0.description) })))
        }
        return .json(400, .object(members), globalHeaders: globalHeaders)
    }
}
