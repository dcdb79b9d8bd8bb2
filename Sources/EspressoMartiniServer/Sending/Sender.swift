import EspressoMartini
import Synchronization

/// Puts decisions on the wire: one switch over `Decision`, each kind of sending in a file of its own
/// (`Sender+…`), each handing its body to `deliver` (`Sender+body.swift`), where a slow network paces it.
/// Then, once an answer is queued, the access log and the journal hear the status sent.
final class Sender: Sendable {
    let accessLog: AccessLog?
    /// Completes journal entries whose status was not known when they were recorded.
    private let journal: RequestJournal?
    /// `"cors": true`: every answer gets its CORS headers, and a tree's slots hold `CORSReadyResponse`s.
    let cors: Bool
    /// Runs the scripts of responses computed per request; a long one off the serving loops.
    let scripts: any ScriptEngine
    /// Connections waiting out a delay, so that shut-down can answer them early.
    let delayed = Locked<[ObjectIdentifier: SuspendedAnswer]>([:])
    /// Connections suspended while their script runs: shut-down waits for none to be left.
    let runningScripts = Atomic<Int>(0)
    /// Forwards to the proxy's target; nil without `"proxy"`.
    let forwarder: Forwarder?
    /// Bodies that arrive over time (streams, throttled bodies), so that shut-down can end them.
    let arriving = Locked(ArrivingBodies())

    struct ArrivingBodies {
        var bodies: [ObjectIdentifier: ArrivingBody] = [:]
        /// Set as the server stops: bodies made from then on are ended at once.
        var stopping = false
    }

    init(
        accessLog: AccessLog?, journal: RequestJournal?, cors: Bool, scripts: any ScriptEngine,
        forwarder: Forwarder? = nil
    ) {
        self.accessLog = accessLog
        self.journal = journal
        self.cors = cors
        self.scripts = scripts
        self.forwarder = forwarder
    }

    /// Carries out `decision` for `request` on `connection`, from the access handler on the connection's
    /// loop, its body no faster than `pace` bytes a second when given (a slow network). Returns what the
    /// access handler returns: true once the answer is queued or the connection suspended; false when no
    /// answer could be made, and the connection is then closed without one.
    func send(
        _ decision: Decision, pacedAt pace: Double? = nil, answering request: Request, state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        switch decision {
        case .prebuilt(let answer):
            return sendPrebuilt(answer, pacedAt: pace, for: decision, answering: request, state: state, on: connection)
        case .rendered(_, let made), .generated(let made), .admin(let made):
            return sendGenerated(made, pacedAt: pace, for: decision, answering: request, state: state, on: connection)
        case .script(let job):
            return run(job, pacedAt: pace, answering: request, state: state, on: connection)
        case .fault(let fault, let answer):
            return fail(fault, answer, for: decision, answering: request, state: state, on: connection)
        case .unavailable(let answer):
            let made = GeneratedAnswer.error(503, "the server is stopping", globalHeaders: answer.tree.globalHeaders)
            return sendGenerated(made, pacedAt: nil, for: decision, answering: request, state: state, on: connection)
        case .unreadable(let path, let answer):
            let made = GeneratedAnswer.error(
                500, "the response file \(path) cannot be read", globalHeaders: answer.tree.globalHeaders)
            return sendGenerated(made, pacedAt: nil, for: decision, answering: request, state: state, on: connection)
        case .stream(let stream):
            return sendStream(stream, pacedAt: pace, for: decision, answering: request, state: state, on: connection)
        case .throttled(let bytesPerSecond, let inner):
            return send(inner, pacedAt: bytesPerSecond, answering: request, state: state, on: connection)
        case .delayed(let seconds, let then):
            return wait(seconds, then: then, answering: request, state: state, on: connection)
        case .forward(let job):
            return forward(job, for: decision, answering: request, state: state, on: connection)
        }
    }

    /// Once `decision` is on the wire (`queued`) with `status` (0 for a fault): one access-log record, and
    /// the journal entry's status when it was recorded without it or with another. Returns `queued`.
    func finished(
        _ decision: Decision, status: UInt32, queued: Bool, answering request: Request, state: RequestState
    ) -> Bool {
        if let entry = state.journalEntry, entry.status != Int(status), let journal {
            journal.complete(entry.ticket, status: Int(status))
        }
        guard let accessLog, let started = state.started else { return queued }
        let answer = decision.exchangeAnswer
        let sequence = answer?.sequencePosition
        let elapsed = MonotonicClock.elapsed(since: started)
        accessLog(
            AccessLogRecord(
                method: request.method, path: request.path, status: status, exchange: answer?.exchange,
                variant: answer?.variant.map { $0 + 1 }, position: (sequence?.index ?? 0) + 1,
                responseCount: sequence?.count ?? 0,
                hundredthsOfMilliseconds: Int(elapsed / 10_000),
                session: request.session?.name, forwarded: decision.isForward
            ))
        return queued
    }

    /// `headers` with the CORS headers the request on `connection` gets; `headers` as they are without CORS.
    func withCORS(_ headers: [HTTPHeader], on connection: some RequestConnection) -> [HTTPHeader] {
        guard cors else { return headers }
        return headers + CORSHeaders(answering: headers).adding(origin: connection.origin.map { String(cString: $0) })
    }
}
