import Dispatch
import EspressoMartini
import EspressoMartiniDaemon
import Glibc
import Logging
import Synchronization

/// The HTTP side of the daemon: a libmicrohttpd daemon whose requests each become a `Request` that the
/// `Decider` decides, the journal records and the `Sender` puts on the wire. This type owns the daemon's
/// life: start, the handler libmicrohttpd calls, and a stop that lets requests in flight finish. What it
/// uses is given to it, made in one place (the `run` command).
public final class HTTPServer: RequestHandler, @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The tree in service and its reloads.
    public let service: TreeService
    let configuration: ServerConfiguration
    private let decider: Decider
    /// The last requests, for the admin API; nil when the admin API is off.
    private let journal: RequestJournal?
    private let sender: Sender
    private let timed: Bool
    /// The session header's name as a C string (its NUL included).
    private let sessionHeader: [CChar]
    /// Requests between their request line and libmicrohttpd's completion notice.
    private let inFlight = Atomic<Int>(0)
    /// Set by `stop`; then the request that brings `inFlight` to 0 signals `drained`.
    private let stopping = Atomic<Bool>(false)
    /// A semaphore (no libdispatch queue, so no worker thread): stop only waits on it.
    private let drained = DispatchSemaphore(value: 0)
    private var daemon: HTTPDaemon?
    /// With `"proxy"`: forwards what the tree does not answer (or everything, when recording).
    private let forwarder: Forwarder?
    /// With recording: writes what the target answers into the tree.
    private let recording: RecordingWriter?
    /// What was recorded, once the server has stopped (nil without recording).
    public private(set) var recorded: (exchanges: Int, responses: Int)?

    /// `127.0.0.1:8080` or `[::1]:8080`, with the real port; set by `start()`.
    public private(set) var address = ""

    /// `decider` decides with `service`'s trees (its admin API journaling into `journal`); `scripts` runs the
    /// scripts it decides on; `accessLog` receives one record per answered request (nil turns it off). With
    /// `"proxy"`, requests go to its target through libcurl (loaded now), and with its `record`, `recorder`
    /// writes the answers into the tree. Throws when libcurl cannot be loaded or the recording cannot start.
    public init(
        configuration: ServerConfiguration, service: TreeService, decider: Decider, journal: RequestJournal?, scripts: any ScriptEngine,
        accessLog: AccessLog?, recorder: ExchangeRecorder? = nil, logger: Logger = Logger(label: "espressomartini")
    ) throws(StartError) {
        self.configuration = configuration
        self.service = service
        self.decider = decider
        self.journal = journal
        var forwarder: Forwarder?
        var recording: RecordingWriter?
        if let proxy = configuration.proxy {
            do {
                if proxy.records, let recorder {
                    recording = try RecordingWriter(recorder: recorder, reloading: proxy.forwards == .misses ? service : nil, logger: logger)
                }
                forwarder = try Forwarder(proxy: proxy, scheme: configuration.tls == nil ? "http" : "https", recording: recording, logger: logger)
            } catch {
                _ = recording?.finish()
                throw StartError(description: "\(error)")
            }
        }
        self.forwarder = forwarder
        self.recording = recording
        sender = Sender(accessLog: accessLog, journal: journal, cors: configuration.cors, scripts: scripts, forwarder: forwarder)
        timed = accessLog != nil
        sessionHeader = configuration.sessionHeader.utf8CString.map { $0 }
    }

    /// Starts answering on `socket` (the daemon takes it over), then reads the tree's small files while
    /// requests are already answered. Throws with a message naming the address when it cannot. With
    /// `tls`, `installCertificate` must have succeeded first.
    public func start(on socket: ListenSocket) throws(StartError) {
        let connectionLimit = Self.raiseDescriptorLimit(for: configuration.connectionLimit)
        decider.templates.setMockServer(scheme + "://" + socket.address)
        // With a proxy, one loop per core drives both libmicrohttpd and the connections to the target.
        var loops: [ServingLoop] = []
        if let forwarder {
            for _ in 0..<Self.coreCount {
                guard let loop = ServingLoop(), let lane = forwarder.makeLane(on: loop) else {
                    close(socket.descriptor)
                    throw StartError(description: "cannot start forwarding to \(forwarder.proxy.target): no epoll set or HTTP client can be made")
                }
                loop.lane = lane
                loops.append(loop)
            }
        }
        guard let daemon = HTTPDaemon(
            socket: socket.descriptor, ipv6: socket.isIPv6, threads: Self.coreCount, connectionTimeout: configuration.connectionTimeout,
            connectionLimit: connectionLimit, handler: self, tlsCertificateCallback: certificateCallback, loops: loops
        ) else {
            close(socket.descriptor)
            throw StartError(description: "cannot start the HTTP listener on \(socket.address)")
        }
        self.daemon = daemon
        self.address = socket.address
        service.tree.readFilesAhead()
    }

    /// libmicrohttpd's threads, and the script threads at most: one per core.
    public static var coreCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Raises the open-files limit as far as the system allows (Debian starts processes at 1024) so that
    /// the connection limit, not a failing accept, is what turns clients away; returns the usable limit.
    private static func raiseDescriptorLimit(for connections: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        let wanted = rlim_t(connections + 64)  // room for the tree's files, the watcher, the journal
        if limit.rlim_cur < wanted {
            limit.rlim_cur = min(wanted, limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return min(connections, max(16, Int(limit.rlim_cur) - 64))
    }

    /// Stops accepting, ends the streams that repeat until their client goes, lets requests in flight
    /// (delayed ones, streams and slowed bodies too) finish within `grace`, ends any still waiting at once,
    /// then stops. Waits on completions, not on a timer. Call once, from one thread.
    public func stop(grace: Duration = .seconds(10)) {
        guard let daemon else { return }
        daemon.quiesce()
        stopping.store(true, ordering: .sequentiallyConsistent)
        // Script calls not yet started are answered 503 now; running ones finish within their timeout.
        sender.scripts.stop()
        sender.endArrivingBodies(endlessOnly: true)
        waitUntilDrained(for: grace)
        sender.resumeAll(scriptLimit: .milliseconds(Int(configuration.scriptTimeout * 1000) + 1000))
        // Forwarded requests still waiting get a 503 or a cut answer; what was received whole is still
        // written, which lets the answers held back for it end.
        forwarder?.stop()
        if let recording {
            let summary = recording.finish()
            recorded = (summary.folders.count, summary.responses)
        }
        waitUntilDrained(for: .seconds(1))
        daemon.stop()
        self.daemon = nil
    }

    /// Returns once no request is in flight, or after `limit`.
    private func waitUntilDrained(for limit: Duration) {
        let deadline = DispatchTime.now() + .nanoseconds(Int(limit.components.seconds) * 1_000_000_000 + Int(limit.components.attoseconds / 1_000_000_000))
        while inFlight.load(ordering: .sequentiallyConsistent) > 0 {
            if drained.wait(timeout: deadline) == .timedOut { return }
        }
    }

    // The handler libmicrohttpd calls (`RequestHandler`), on its threads.

    @inline(__always)
    func requestStarted(uri: UnsafePointer<CChar>?) -> RequestState {
        var query = ""
        if let uri, let mark = strchr(uri, Int32(UInt8(ascii: "?"))) {
            query = String(cString: mark + 1)
        }
        inFlight.add(1, ordering: .relaxed)
        // With a proxy, the request's target is kept as it came, to be forwarded unchanged.
        return RequestState(query: query, timed: timed, rawTarget: forwarder != nil ? uri.map { String(cString: $0) } : nil)
    }

    func received(
        _ state: RequestState, on connection: HTTPConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, body: UnsafeRawBufferPointer
    ) -> Bool {
        receive(state, on: connection, url: url, method: method, body: body)
    }

    @inline(__always)
    func requestCompleted(_ state: RequestState) {
        state.forwarded?.clientGone()
        if inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue == 0, stopping.load(ordering: .sequentiallyConsistent) {
            drained.signal()
        }
    }

    /// The headers (the first call), a piece of body, or the end of the request: then decide, journal and
    /// send, or send the decision that waited out its delay or its script. With a proxy, a request the tree
    /// does not answer is forwarded as soon as that is known (at its headers, unless its exchange reads the
    /// body), and its body then streams to the target piece by piece.
    func receive(
        _ state: RequestState, on connection: some RequestConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, body: UnsafeRawBufferPointer
    ) -> Bool {
        guard state.headersSeen else {
            state.headersSeen = true
            prepare(state, connection: connection, method: method, url: url)
            if state.rawTarget != nil { return forwardIfMissed(state, on: connection, url: url, method: method) }
            return true
        }
        if let forwarded = state.forwarded {
            if !body.isEmpty {
                keepForJournal(body, state: state)
                forwarded.push(body)
                return true
            }
            state.bodyComplete = true
            if state.journalEntry == nil, let journal {
                state.journalEntry = journal.record(forwarded.request, answeredBy: forwarded.decision, body: state.body, bodySize: state.bodySize)
            }
            guard case .forward(let job) = forwarded.decision else { return false }
            return sender.answerForwarded(forwarded, job: job, state: state, on: connection)
        }
        if !body.isEmpty {
            state.bodySize += body.count
            let keep = min(body.count, state.bodyLimit - state.body.count)
            if keep > 0 { state.body.append(contentsOf: body.prefix(keep)) }
            if state.rawTarget != nil, state.exchangeReadsBody, !state.checkedPastBodyLimit, state.bodySize > VariantConditions.bodyLimit {
                // No condition reads a body this long: what the tree does with it is known now.
                state.checkedPastBodyLimit = true
                let handled = forwardIfMissed(state, on: connection, url: url, method: method)
                if let forwarded = state.forwarded, keep < body.count { forwarded.push(UnsafeRawBufferPointer(rebasing: body[keep...])) }
                return handled
            }
            return true
        }
        state.bodyComplete = true
        if let suspended = state.suspended {
            state.suspended = nil
            return sender.send(suspended.decision, answering: suspended.request, state: state, on: connection)
        }
        var request = makeRequest(state, on: connection, url: url, method: method)
        let decision: Decision
        if let refusal = state.sessionRefusal {
            decision = decider.refusingSession(because: refusal)
        } else {
            let tree = state.tree ?? service.tree
            let plan = decider.plan(request, tree: tree)
            // Who asks matters to the admin API alone: the client's address is read for its requests only.
            if case .admin = plan { request.client = connection.clientAddress }
            decision = decider.commit(plan, for: request, tree: tree)
        }
        if let journal, !decision.isAdmin {
            let body = state.body.count > JournalEntry.bodyLimit ? Array(state.body.prefix(JournalEntry.bodyLimit)) : state.body
            state.journalEntry = journal.record(request, answeredBy: decision, body: body, bodySize: state.bodySize)
        }
        return sender.send(decision, answering: request, state: state, on: connection)
    }

    /// The request as the decider sees it, with the body kept when its exchange reads it (or the admin API,
    /// for `requests/count` and `requests/find`).
    private func makeRequest(_ state: RequestState, on connection: some RequestConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> Request {
        let knownMethod = HTTPMethod(requestMethod: method)
        let keepsBody = state.bodySize > 0 && (state.exchangeReadsBody || (journal != nil && Self.isAdminPath(url)))
        return Request(
            method: knownMethod?.name ?? String(cString: method), knownMethod: knownMethod, path: String(cString: url),
            rawQuery: state.query, headers: connection.headers,
            body: keepsBody ? state.body : nil, bodySize: state.bodySize, session: state.session
        )
    }

    /// With a proxy, before the body's end: plans the request, and when the tree has no answer for it,
    /// starts forwarding it now, so that its body streams to the target. At the headers, a request whose
    /// exchange reads its body is planned once the body is in (its route looked up once for both).
    private func forwardIfMissed(_ state: RequestState, on connection: some RequestConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> Bool {
        let request = makeRequest(state, on: connection, url: url, method: method)
        let tree = state.tree ?? service.tree
        var route: RouteMatch?
        if tree.readsBodies, !state.exchangeReadsBody {
            let match = tree.exchangeTree.resolve(request.segments, method: request.knownMethod)
            if case .exchange(let index) = match, tree.exchangeTree.exchanges[index].readsBody {
                readsBody(state)
                return true
            }
            route = match
        }
        guard state.sessionRefusal == nil else { return true }
        let plan = decider.plan(request, tree: tree, route: route)
        guard case .forward = plan else { return true }
        return sender.send(decider.commit(plan, for: request, tree: tree), answering: request, state: state, on: connection)
    }

    /// Keeps the start of a forwarded request's body for the journal.
    private func keepForJournal(_ body: UnsafeRawBufferPointer, state: RequestState) {
        state.bodySize += body.count
        let keep = min(body.count, state.bodyLimit - state.body.count)
        if keep > 0 { state.body.append(contentsOf: body.prefix(keep)) }
    }

    /// Once the headers are in: takes the tree that will decide the request, and how much of its body to
    /// keep: the journal's part, or up to `VariantConditions.bodyLimit` when the request's exchange reads it
    /// (looked up now only on a tree where some exchange does).
    private func prepare(_ state: RequestState, connection: some RequestConnection, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>) {
        let tree = service.tree
        state.tree = tree
        readSession(state, connection: connection)
        if journal != nil { state.bodyLimit = JournalEntry.bodyLimit }
        if state.rawTarget != nil {
            // Looked up with the request's plan (`forwardIfMissed`).
            readBodyFraming(state, connection: connection)
            return
        }
        guard tree.readsBodies,
              case .exchange(let index) = tree.exchangeTree.resolve(RequestPath(String(cString: url)), method: HTTPMethod(requestMethod: method)),
              tree.exchangeTree.exchanges[index].readsBody else { return }
        readsBody(state)
    }

    /// The request's exchange reads its body: it is kept up to what conditions read.
    private func readsBody(_ state: RequestState) {
        state.exchangeReadsBody = true
        state.bodyLimit = max(state.bodyLimit, VariantConditions.bodyLimit)
    }

    /// With a proxy: whether the request has a body, and its announced length.
    private func readBodyFraming(_ state: RequestState, connection: some RequestConnection) {
        if let length = Self.contentLength.withUnsafeBufferPointer({ connection.header(named: $0) }) {
            state.hasBody = true
            state.announcedBodySize = Int(String(decoding: length, as: UTF8.self).trimmingWhitespace)
        } else if Self.transferEncoding.withUnsafeBufferPointer({ connection.header(named: $0) }) != nil {
            state.hasBody = true
        }
    }

    private static let contentLength = Array("Content-Length".utf8CString)
    private static let transferEncoding = Array("Transfer-Encoding".utf8CString)

    /// Whether `url` lies under the admin prefix, empty segments skipped as routing skips them: the admin
    /// API reads the bodies of `requests/count` and `requests/find`, kept as the journal keeps any body.
    /// Asked only of a request with a body its exchange does not read.
    private static func isAdminPath(_ url: UnsafePointer<CChar>) -> Bool {
        var start = url
        while start.pointee == CChar(UInt8(ascii: "/")) { start += 1 }
        let prefix = Decider.adminPrefix
        let length = prefix.utf8CodeUnitCount
        // strncmp stops at the URL's end, where memcmp could read past it.
        guard strncmp(start, UnsafeRawPointer(prefix.utf8Start).assumingMemoryBound(to: CChar.self), length) == 0 else { return false }
        return start[length] == 0 || start[length] == CChar(UInt8(ascii: "/"))
    }

    /// Looks the session header up where the connection keeps the headers: a request without it pays this
    /// one lookup and nothing more.
    private func readSession(_ state: RequestState, connection: some RequestConnection) {
        guard let value = sessionHeader.withUnsafeBufferPointer({ connection.header(named: $0) }) else { return }
        switch SessionName(headerValue: value) {
        case .none: break
        case .named(let name): state.session = service.sessions.session(named: name)
        case .refused(let reason): state.sessionRefusal = "the \(configuration.sessionHeader) header cannot name a session: \(reason)"
        }
    }
}
