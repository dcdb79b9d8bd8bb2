import EspressoMartini
import Glibc

// One request's life, as libmicrohttpd calls the handler (`RequestHandler`) on the request's loop: its request
// line, its headers, each piece of its body, its end (again after each resume), and its completion.
extension HTTPServer {
    @inline(__always)
    func requestStarted(uri: UnsafePointer<CChar>?) -> RequestState {
        inFlight.add(1, ordering: .relaxed)
        guard let uri else { return RequestState(target: "", query: "", timed: timed) }
        let mark = strchr(uri, Int32(UInt8(ascii: "?")))
        let state = RequestState(
            target: keepsTargets ? String(cString: uri) : "", query: mark.map { String(cString: $0 + 1) } ?? "",
            timed: timed)
        if let end = Self.encodedSlashPathEnd(uri, query: mark) {
            state.sentPath = UnsafeBufferPointer(start: uri, count: end).withMemoryRebound(to: UInt8.self) {
                RequestPath(sent: $0)
            }
        }
        // The query is read from `state.query` only. libmicrohttpd would next store each of its parameters in
        // the connection's 16 KiB as well, where a few hundred of them leave no room for the headers or even
        // for an answer (the connection closed): it parses what follows `?` in its read buffer, which `uri`
        // points into, so it is left an empty query.
        if let mark, mark[1] != 0 { mark[1] = 0 }
        return state
    }

    /// Where the path of the request target `uri` ends, when it holds an encoded slash (`%2F`, `%2f`): then
    /// its segments are split before they are decoded (libmicrohttpd hands over the path decoded). Nil for
    /// every other target, which costs a search for `%`.
    private static func encodedSlashPathEnd(_ uri: UnsafePointer<CChar>, query: UnsafeMutablePointer<CChar>?) -> Int? {
        guard uri.pointee == CChar(UInt8(ascii: "/")) else { return nil }
        let end = query.map { $0 - UnsafeMutablePointer(mutating: uri) } ?? strlen(uri)
        var at = uri
        while let percent = memchr(at, Int32(UInt8(ascii: "%")), end - (at - uri)) {
            let mark = percent.assumingMemoryBound(to: CChar.self)
            if mark + 2 < uri + end, mark[1] == CChar(UInt8(ascii: "2")), mark[2] | 0x20 == CChar(UInt8(ascii: "f")) {
                return end
            }
            at = UnsafePointer(mark + 1)
        }
        return nil
    }

    func received(
        _ state: RequestState, on connection: HTTPConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        body: UnsafeRawBufferPointer
    ) -> Bool {
        if state.phase == .started, refusesCrowdedRequest(state, on: connection, url: url, method: method) {
            return false
        }
        return receive(state, on: connection, url: url, method: method, body: body)
    }

    @inline(__always)
    func requestCompleted(_ state: RequestState) {
        state.bodySink?.requestEnded()
        if inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue == 0,
            stopping.load(ordering: .sequentiallyConsistent)
        {
            drained.withLock { $0 = true }
            drained.broadcast()
        }
    }

    /// One path for every request. At its headers the request is planned (`Decider.plan(atHeaders:tree:)`),
    /// and its decision says where the body goes: kept for the journal, or for a forward streamed to the
    /// target as it arrives. A request whose exchange reads its body (variants, templates, scripts) and one to
    /// the admin API are planned once the body is in, or as soon as it outgrows what conditions read. At its
    /// end it is journaled and its decision carried out; after a resume, the decision goes on (what waited
    /// out its delay or its script, a forward whose answer has come).
    func receive(
        _ state: RequestState, on connection: some RequestConnection, url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>, body: UnsafeRawBufferPointer
    ) -> Bool {
        connection.loop.assertInEventLoop()
        if state.phase == .started {
            planAtHeaders(state, on: connection, url: url, method: method)
            return true
        }
        if !body.isEmpty {
            take(body, state: state, on: connection)
            return true
        }
        if let suspended = state.suspended {
            state.suspended = nil
            return sender.send(suspended.decision, answering: suspended.request, state: state, on: connection)
        }
        let ended = !state.bodyComplete
        if ended {
            state.bodyComplete = true
            if state.phase == .awaitingBody { decideWithBody(state, on: connection) }
        }
        // Moved out for the sending and back after it (not copied): a resumed request sends again.
        guard let request = state.request.take(), let decision = state.decision.take() else { return false }
        if ended { record(request, answeredBy: decision, state: state) }
        let handled = sender.send(decision, answering: request, state: state, on: connection)
        state.request = request
        state.decision = decision
        return handled
    }

    /// Once the headers are in: the tree that will decide the request, its session, and its plan, or how much
    /// of its body to keep before it is planned.
    private func planAtHeaders(
        _ state: RequestState, on connection: some RequestConnection, url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>
    ) {
        let served = service.served
        let tree = served.tree
        state.tree = tree
        if journal != nil { state.bodyLimit = JournalEntry.bodyLimit }
        var request = makeRequest(state, on: connection, url: url, method: method)
        request.runtime = served.runtime
        switch decider.plan(atHeaders: request, tree: tree) {
        case .decided(let plan):
            decide(plan, for: request, state: state, on: connection)
            state.request = request
        case .awaitsBody(let route):
            state.bodyLimit = max(state.bodyLimit, VariantConditions.bodyLimit)
            state.phase = .awaitingBody
            state.awaitedRoute = route
            state.request = request
        case .admin:
            // Who asks matters to the admin API alone: the client's address is read for its requests only. It
            // reads the bodies of `requests/count` and `requests/find`, and of `exchanges`, up to its limit.
            var admin = request
            admin.client = connection.clientAddress
            state.bodyLimit = max(state.bodyLimit, AdminAPI.bodyLimit)
            state.phase = .awaitingBody
            state.request = admin
        }
    }

    /// A piece of the body: its start kept, and the rest where the decision sends it. A request planned once
    /// its body is in is planned now when the body outgrows what conditions read: what the tree does with it
    /// is known, and the rest of the body goes where that decision says.
    private func take(_ body: UnsafeRawBufferPointer, state: RequestState, on connection: some RequestConnection) {
        state.bodySize += body.count
        let keep = min(body.count, state.bodyLimit - state.body.count)
        if keep > 0 { state.body.append(contentsOf: body.prefix(keep)) }
        if let sink = state.bodySink {
            sink.push(body)
        } else if state.phase == .awaitingBody, state.awaitedRoute != nil, state.bodySize > VariantConditions.bodyLimit
        {
            decideWithBody(state, on: connection)
            if keep < body.count { state.bodySink?.push(UnsafeRawBufferPointer(rebasing: body[keep...])) }
        }
    }

    /// Plans a request that waited for its body, with the body kept so far.
    private func decideWithBody(_ state: RequestState, on connection: some RequestConnection) {
        guard var request = state.request else { return }
        if state.bodySize > 0 { request.body = state.body }
        request.bodySize = state.bodySize
        decide(
            decider.plan(request, tree: state.tree!, route: state.awaitedRoute), for: request, state: state,
            on: connection)
        state.request = request
        state.awaitedRoute = nil
    }

    /// Commits `plan`: the decision, and where the rest of the body goes.
    private func decide(_ plan: Plan, for request: Request, state: RequestState, on connection: some RequestConnection)
    {
        let decision = decider.commit(plan, for: request, tree: state.tree!)
        state.phase = .decided
        state.bodySink = sender.bodySink(for: decision, answering: request, state: state, on: connection)
        state.decision = decision
    }

    /// Journals the request as decided (the admin API's requests are not), with the start of its body.
    private func record(_ request: Request, answeredBy decision: Decision, state: RequestState) {
        guard let journal, !decision.isAdmin else { return }
        let body =
            state.body.count > JournalEntry.bodyLimit ? Array(state.body.prefix(JournalEntry.bodyLimit)) : state.body
        state.journalEntry = journal.record(request, answeredBy: decision, body: body, bodySize: state.bodySize)
    }

    /// The request as its headers say, with its session; the body is added once it is in, when it is read.
    private func makeRequest(
        _ state: RequestState, on connection: some RequestConnection, url: UnsafePointer<CChar>,
        method: UnsafePointer<CChar>
    ) -> Request {
        let knownMethod = HTTPMethod(requestMethod: method)
        var request = Request(
            method: knownMethod?.name ?? String(cString: method), knownMethod: knownMethod, path: String(cString: url),
            segments: state.sentPath, rawQuery: state.query,
            headers: connection.headers, body: nil, bodySize: 0
        )
        // Looked up where the connection keeps the headers: a request without it pays this one lookup.
        if let value = sessionHeader.withUnsafeBufferPointer({ connection.header(named: $0) }) {
            switch SessionName(headerValue: value) {
            case .none: break
            case .named(let name): request.session = service.sessions.session(named: name)
            case .refused(let reason):
                request.sessionRefusal = SessionName.refusal(reason, header: configuration.sessionHeader)
            }
        }
        return request
    }
}
