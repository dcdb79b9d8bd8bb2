import CMicroHTTPD
import EspressoMartini
import EspressoMartiniScripting
import Glibc
import Synchronization

/// Puts decisions on the wire: queues libmicrohttpd responses (a tree's shared ones, bytes made for one
/// request such as a rendered template, files from disk), suspends a connection for a delay and resumes it, and writes the access log.
/// With `LibMicroHTTPDResponse`, the only code that knows libmicrohttpd's responses.
final class Sender: Sendable {
    private let accessLog: AccessLog?
    /// Connections waiting out a delay, so that shut-down can answer them early.
    private let suspended = Locked<[ObjectIdentifier: RequestState]>([:])
    /// Ends delays; its thread starts with the first delayed request.
    private let timer = DeadlineTimer()
    /// `"cors": true`: every answer gets its CORS headers, and a tree's slots hold `CORSReadyResponse`s.
    private let cors: Bool
    /// Runs the scripts of responses computed per request, off libmicrohttpd's threads.
    private let scripts: ScriptRunner
    /// Reads request bodies for scripts.
    private let parser: any JSONParser
    /// The default session's pan-request cache; a request naming a session uses that session's.
    private let cache: PanRequestCache
    /// Connections suspended while their script runs: shut-down waits for none to be left.
    private let suspendedForScripts = Atomic<Int>(0)

    /// What a tree's slots hold, by `cors`: frees one when its tree goes.
    static func releaseBuilt(cors: Bool) -> @Sendable (UnsafeMutableRawPointer) -> Void {
        guard cors else { return LibMicroHTTPDResponse.release }
        return { built in Unmanaged<CORSReadyResponse>.fromOpaque(built).release() }
    }

    init(accessLog: AccessLog?, cors: Bool, scripts: ScriptRunner, parser: any JSONParser, cache: PanRequestCache) {
        self.accessLog = accessLog
        self.cors = cors
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
        let requestText = ScriptRequest.json(model, call: answer.call)
        state.pending = (decision, request)
        state.connection = connection
        suspendedForScripts.add(1, ordering: .sequentiallyConsistent)
        MHD_suspend_connection(connection)
        scripts.run(script, request: requestText, body: model.bodyText, tree: answer.tree, cache: request.session?.cache ?? cache) { [self] computed in
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
        case .exchange(let answer):
            if let rendered = answer.rendered { queue(rendered, on: connection) } else { queue(answer, on: connection) }
        case .generated(let answer), .admin(let answer): queue(answer, on: connection)
        case .delayed(_, let decision): queue(decision, on: connection)  // `send` waits first; never reached
        }
    }

    private func queue(_ answer: GeneratedAnswer, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        guard let response = LibMicroHTTPDResponse.copying(answer.body, headers: withCORS(answer.headers, on: connection)) else {
            return (.NO, answer.statusCode)
        }
        defer { MHD_destroy_response(response) }
        return (MHD_queue_response(connection, answer.statusCode, response), answer.statusCode)
    }

    /// The tree's shared response, built now if this is its first request; a large file is sent from disk
    /// for every request. A response file that cannot be read now (deleted since the tree was loaded) is a
    /// `500`, and a later request tries it again.
    private func queue(_ answer: ExchangeAnswer, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        let tree = answer.tree, slot = answer.slot, status = answer.statusCode
        if tree.hasFaults, let fault = answer.fault {
            return (FaultSender.fail(fault, answer, on: connection), 0)
        }
        if let shared = tree.built.existing(slot) {
            return queue(built: shared, status: status, on: connection)
        }
        if let diskFile = tree.diskFiles[slot] {
            guard let perRequest = LibMicroHTTPDResponse.sendingFile(diskFile.path, headers: withCORS(diskFile.headers, on: connection)) else {
                return unreadable(diskFile.path, tree: tree, on: connection)
            }
            defer { MHD_destroy_response(perRequest) }
            return (MHD_queue_response(connection, status, perRequest), status)
        }
        let response = answer.response
        let headers = response.effectiveHeaders(global: tree.globalHeaders)
        let body: (buffer: UnsafeRawBufferPointer, owner: AnyObject)
        if case .file(let name, let resolved, _) = response.body {
            let path = tree.tree.path(ofFile: name, at: resolved, in: answer.exchange)
            guard let bytes = tree.bytes(ofFileIn: slot, at: path) else { return unreadable(path, tree: tree, on: connection) }
            body = (bytes.buffer, bytes.owner)
        } else {
            let bytes = HeapBytes(copying: response.body.inlineBytes)
            body = (bytes.bytes, bytes)
        }
        let made: UnsafeMutableRawPointer?
        if cors {
            made = CORSReadyResponse(body: body.buffer, owner: body.owner, headers: headers).map { Unmanaged.passRetained($0).toOpaque() }
        } else {
            made = LibMicroHTTPDResponse.sharing(body.buffer, owner: body.owner, headers: headers).map(UnsafeMutableRawPointer.init)
        }
        // Two first requests may both build it; only the one published first is ever sent, so every
        // answer from this tree is one version of the file.
        guard let made else { return (.NO, status) }
        return queue(built: tree.built.publish(made, in: slot), status: status, on: connection)
    }

    /// Queues a response kept in a tree's slot: shared as it is, or, with CORS and a request with an
    /// `Origin`, the slot's response for that origin.
    private func queue(built: UnsafeMutableRawPointer, status: UInt32, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        guard cors else { return (MHD_queue_response(connection, status, OpaquePointer(built)), status) }
        let ready = Unmanaged<CORSReadyResponse>.fromOpaque(built).takeUnretainedValue()
        guard let origin = MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin") else {
            return (MHD_queue_response(connection, status, ready.shared), status)
        }
        guard let (response, madeForRequest) = ready.response(origin: origin) else { return (.NO, status) }
        defer { if madeForRequest { MHD_destroy_response(response) } }
        return (MHD_queue_response(connection, status, response), status)
    }

    /// `headers` with the CORS headers the request on `connection` gets; `headers` as they are without CORS.
    private func withCORS(_ headers: [HTTPHeader], on connection: OpaquePointer) -> [HTTPHeader] {
        guard cors else { return headers }
        let origin = MHD_lookup_connection_value(connection, .HEADER_KIND, "Origin").map { String(cString: $0) }
        return headers + CORSHeaders(answering: headers).adding(origin: origin)
    }

    private func unreadable(_ path: String, tree: ServingTree, on connection: OpaquePointer) -> (MHD_Result, status: UInt32) {
        queue(GeneratedAnswer.error(500, "the response file \(path) cannot be read", globalHeaders: tree.globalHeaders), on: connection)
    }
}
