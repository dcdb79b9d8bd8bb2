import CMicroHTTPD
import EspressoMartini
import EspressoMartiniScripting
import Glibc
import Synchronization

/// Puts decisions on the wire: queues libmicrohttpd responses (a tree's shared ones, bytes made for one
/// request, files from disk), suspends a connection for a delay and resumes it, and writes the access log.
/// With `LibMicroHTTPDResponse`, the only code that knows libmicrohttpd's responses.
final class Sender: Sendable {
    private let accessLog: AccessLog?
    /// Connections waiting out a delay, so that shut-down can answer them early.
    private let suspended = Locked<[ObjectIdentifier: RequestState]>([:])
    /// Ends delays; its thread starts with the first delayed request.
    private let timer = DeadlineTimer()
    /// Runs the scripts of responses computed per request, off libmicrohttpd's threads.
    private let scripts: ScriptRunner
    /// Reads request bodies for scripts.
    private let parser: any JSONParser
    /// The pan-request cache a script call uses, asked for at each call.
    private let cache: @Sendable () -> PanRequestCache
    /// Connections suspended while their script runs: shut-down waits for none to be left.
    private let suspendedForScripts = Atomic<Int>(0)

    init(accessLog: AccessLog?, scripts: ScriptRunner, parser: any JSONParser, cache: @escaping @Sendable () -> PanRequestCache) {
        self.accessLog = accessLog
        self.scripts = scripts
        self.parser = parser
        self.cache = cache
    }

    /// Carries out `decision` for `request` on `connection`, from the access handler on the connection's
    /// thread. Returns what the access handler returns: `.YES` once the answer is queued or the connection
    /// suspended; `.NO` when no response could be made, and libmicrohttpd then closes the connection
    /// without an answer.
    func send(_ decision: Decision, answering request: Request, state: RequestState, on connection: OpaquePointer) -> MHD_Result {
        if case .delayed(let seconds, let then) = decision {
            state.pending = (then, request)
            state.connection = connection
            suspended.withLock { $0[ObjectIdentifier(state)] = state }
            MHD_suspend_connection(connection)
            timer.schedule(after: seconds) { [self] in resume(state) }
            return .YES
        }
        let result: MHD_Result, status: UInt32
        if case .exchange(let answer) = decision, answer.tree.hasScripts, let script = answer.response.script {
            guard let computed = state.scriptAnswer else { return run(script, for: answer, decision: decision, answering: request, state: state, on: connection) }
            state.scriptAnswer = nil
            (result, status) = queue(computed, on: connection)
        } else {
            (result, status) = queue(decision, on: connection)
        }
        if let accessLog, let started = state.started {
            let answer = decision.exchangeAnswer
            let sequence = answer?.sequencePosition
            let elapsed = ContinuousClock.now - started
            accessLog(AccessLogRecord(
                method: request.method, path: request.path, status: status, exchange: answer?.exchange,
                variant: answer?.variant.map { $0 + 1 }, position: (sequence?.index ?? 0) + 1, responseCount: sequence?.count ?? 0,
                hundredthsOfMilliseconds: Int(elapsed.components.seconds) * 100_000 + Int(elapsed.components.attoseconds / 10_000_000_000_000)
            ))
        }
        return result
    }

    /// Suspends the connection while a script thread computes the answer; the connection resumes with it
    /// in `state.scriptAnswer`, and libmicrohttpd then calls the access handler again, which sends it.
    private func run(
        _ script: ResponseScript, for answer: ExchangeAnswer, decision: Decision, answering request: Request, state: RequestState,
        on connection: OpaquePointer
    ) -> MHD_Result {
        if scripts.isStopping {
            return queue(GeneratedAnswer.error(503, "the server is stopping", globalHeaders: answer.tree.globalHeaders), on: connection).0
        }
        let model = RequestModel(request, route: answer.exchange.route, parser: parser)
        let call = answer.tree.counter(exchangeAt: answer.exchangeIndex, variant: answer.variant ?? 0).value
        let requestText = ScriptRequest.json(model, call: call)
        state.pending = (decision, request)
        state.connection = connection
        suspendedForScripts.add(1, ordering: .sequentiallyConsistent)
        MHD_suspend_connection(connection)
        scripts.run(script, request: requestText, body: model.bodyText, tree: answer.tree, cache: cache()) { [self] computed in
            state.scriptAnswer = computed
            if let connection = state.connection { MHD_resume_connection(connection) }
            suspendedForScripts.subtract(1, ordering: .sequentiallyConsistent)
        }
        return .YES
    }

    /// Ends a request's delay: exactly once, whoever (the timer or shut-down) comes first. libmicrohttpd
    /// then calls the access handler again, which sends `state.pending`. Any thread.
    func resume(_ state: RequestState) {
        guard !state.resumed.exchange(true, ordering: .acquiringAndReleasing), let connection = state.connection else { return }
        suspended.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(state)) }
        MHD_resume_connection(connection)
    }

    /// Ends every delay now and answers script calls not yet started (shut-down: libmicrohttpd must not stop
    /// with suspended connections); waits, up to `scriptLimit`, for the running script calls to end.
    func resumeAll(scriptLimit: Duration) {
        scripts.stop()
        let deadline = ContinuousClock.now + scriptLimit
        while suspendedForScripts.load(ordering: .sequentiallyConsistent) > 0, ContinuousClock.now < deadline {
            usleep(1000)
        }
        for state in suspended.withLock({ Array($0.values) }) { resume(state) }
    }

    /// Queues the answer; the status it has, for the access log.
    private func queue(_ decision: Decision, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        switch decision {
        case .exchange(let answer): queue(answer, on: connection)
        case .generated(let answer), .admin(let answer): queue(answer, on: connection)
        case .delayed(_, let decision): queue(decision, on: connection)  // `send` waits first; never reached
        }
    }

    private func queue(_ answer: GeneratedAnswer, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        guard let response = LibMicroHTTPDResponse.copying(answer.body, headers: answer.headers) else { return (.NO, answer.statusCode) }
        defer { MHD_destroy_response(response) }
        return (MHD_queue_response(connection, answer.statusCode, response), answer.statusCode)
    }

    /// The tree's shared response, built now if this is its first request; a large file is sent from disk
    /// for every request. A response file that cannot be read now (deleted since the tree was loaded) is a
    /// `500`, and a later request tries it again.
    private func queue(_ answer: ExchangeAnswer, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        let tree = answer.tree, slot = answer.slot, status = answer.statusCode
        if let shared = tree.built.existing(slot) {
            return (MHD_queue_response(connection, status, OpaquePointer(shared)), status)
        }
        if let diskFile = tree.diskFiles[slot] {
            guard let perRequest = LibMicroHTTPDResponse.sendingFile(diskFile.path, headers: diskFile.headers) else {
                return unreadable(diskFile.path, tree: tree, on: connection)
            }
            defer { MHD_destroy_response(perRequest) }
            return (MHD_queue_response(connection, status, perRequest), status)
        }
        let response = answer.response
        let headers = response.effectiveHeaders(global: tree.globalHeaders)
        let made: OpaquePointer?
        if case .file(let name, let resolved, _) = response.body {
            let path = tree.tree.path(ofFile: name, at: resolved, in: answer.exchange)
            guard let bytes = tree.bytes(ofFileIn: slot, at: path) else { return unreadable(path, tree: tree, on: connection) }
            made = LibMicroHTTPDResponse.sharing(bytes, headers: headers)
        } else {
            made = LibMicroHTTPDResponse.copying(response.body.inlineBytes, headers: headers)
        }
        // Two first requests may both build it; only the one published first is ever sent, so every
        // answer from this tree is one version of the file.
        guard let made else { return (.NO, status) }
        let shared = tree.built.publish(UnsafeMutableRawPointer(made), in: slot)
        return (MHD_queue_response(connection, status, OpaquePointer(shared)), status)
    }

    private func unreadable(_ path: String, tree: ServingTree, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        queue(GeneratedAnswer.error(500, "the response file \(path) cannot be read", globalHeaders: tree.globalHeaders), on: connection)
    }
}
