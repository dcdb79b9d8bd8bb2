import CMicroHTTPD
import Dispatch
import EspressoMartini
import EspressoMartiniDaemon
import EspressoMartiniScripting
import Glibc
import Logging
import Synchronization

/// The HTTP side of the daemon: a libmicrohttpd daemon (internal polling thread with epoll, a thread
/// pool sized to the cores) whose access handler turns each request into a `Request`, lets the `Decider`
/// decide, journals it and hands the decision to the `Sender`. This type owns the daemon's life: start,
/// the C callbacks, and a stop that lets requests in flight finish.
public final class MockServer: @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The tree in service and its reloads.
    public let service: TreeService
    let configuration: ServerConfiguration
    private let decider: Decider
    /// What templates see beside the request; told the server's address once it is bound.
    private let templates: TemplateEnvironment
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
    private var daemon: OpaquePointer?

    /// `127.0.0.1:8080` or `[::1]:8080`, with the real port; set by `start()`.
    public private(set) var address = ""

    /// `accessLog` receives one record per answered request; nil turns the access log off.
    public init(
        configuration: ServerConfiguration, tree: ExchangeTree, loader: TreeLoader, logger: Logger, accessLog: AccessLog?,
        reloadObserver: TreeService.ReloadObserver? = nil
    ) {
        self.configuration = configuration
        let service = TreeService(
            tree: tree, configuration: configuration, loader: loader, logger: logger, observer: reloadObserver,
            releaseBuilt: Sender.releaseBuilt(cors: configuration.cors)
        )
        self.service = service
        let journal = configuration.admin ? RequestJournal() : nil
        self.journal = journal
        let templates = TemplateEnvironment(cache: service.cache)
        self.templates = templates
        decider = Decider(
            configuration: configuration, admin: journal.map { AdminAPI(service: service, journal: $0, parser: JanssonParser()) }, parser: JanssonParser(),
            templates: templates
        )
        let scripts = ScriptRunner(timeout: configuration.scriptTimeout, parser: JanssonParser(), logger: logger, threads: Self.coreCount)
        sender = Sender(accessLog: accessLog, cors: configuration.cors, scripts: scripts, parser: JanssonParser(), cache: service.cache)
        timed = accessLog != nil
        sessionHeader = configuration.sessionHeader.utf8CString.map { $0 }
    }

    /// Starts answering on `socket` (the daemon takes it over), then reads the tree's small files while
    /// requests are already answered. Throws with a message naming the address when it cannot. With
    /// `tls`, `installCertificate` must have succeeded first.
    public func start(on socket: ListenSocket) throws(StartError) {
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let poolSize = UInt32(Self.coreCount)
        let connectionLimit = Self.raiseDescriptorLimit(for: configuration.connectionLimit)
        let context = Unmanaged.passUnretained(self).toOpaque()
        templates.setMockServer(scheme + "://" + socket.address)
        guard let daemon = em_start_daemon(
            flags, socket.descriptor, poolSize, UInt32(configuration.connectionTimeout), UInt32(connectionLimit),
            MockServer.accessHandler, MockServer.completedHandler, MockServer.requestStartHandler, context, certificateCallback
        ) else {
            close(socket.descriptor)
            throw StartError(description: "cannot start the HTTP listener on \(socket.address)")
        }
        self.daemon = daemon
        self.address = socket.address
        service.tree.readFilesAhead()
    }

    /// libmicrohttpd's threads, and the script threads at most: one per core.
    private static var coreCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

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

    /// Stops accepting, lets requests in flight (delayed ones too) finish within `grace`, answers any
    /// still waiting at once, then stops. Waits on completions, not on a timer. Call once, from one thread.
    public func stop(grace: Duration = .seconds(10)) {
        guard let daemon else { return }
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        stopping.store(true, ordering: .sequentiallyConsistent)
        waitUntilDrained(for: grace)
        sender.resumeAll(scriptLimit: .milliseconds(Int(configuration.scriptTimeout * 1000) + 1000))
        waitUntilDrained(for: .seconds(1))
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    /// Returns once no request is in flight, or after `limit`.
    private func waitUntilDrained(for limit: Duration) {
        let deadline = DispatchTime.now() + .nanoseconds(Int(limit.components.seconds) * 1_000_000_000 + Int(limit.components.attoseconds / 1_000_000_000))
        while inFlight.load(ordering: .sequentiallyConsistent) > 0 {
            if drained.wait(timeout: deadline) == .timedOut { return }
        }
    }

    /// The last call of the access handler for a request (its body, if any, is consumed): decide, journal,
    /// send; or send the decision that waited out its delay.
    private func answer(_ state: RequestState, on connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>) -> MHD_Result {
        if let (decision, request) = state.pending {
            state.pending = nil
            return sender.send(decision, answering: request, state: state, on: connection)
        }
        let knownMethod = HTTPMethod(requestMethod: method)
        var request = Request(
            method: knownMethod?.name ?? String(cString: method), knownMethod: knownMethod, path: String(cString: url),
            rawQuery: state.query, headers: RequestHeaders(reading: ConnectionHeaders(connection: connection)),
            body: state.exchangeReadsBody && state.bodySize > 0 ? state.body : nil, bodySize: state.bodySize
        )
        request.session = state.session
        let decision = state.sessionRefusal.map { .generated(.error(400, $0, globalHeaders: configuration.headers)) }
            ?? decider.decide(request, tree: state.tree ?? service.tree)
        if let journal, !decision.isAdmin {
            let body = state.body.count > JournalEntry.bodyLimit ? Array(state.body.prefix(JournalEntry.bodyLimit)) : state.body
            journal.record(request, answeredBy: decision, body: body, bodySize: state.bodySize)
        }
        return sender.send(decision, answering: request, state: state, on: connection)
    }

    /// Once the headers are in: takes the tree that will decide the request, and how much of its body to
    /// keep: the journal's part, or up to `VariantConditions.bodyLimit` when the request's exchange reads it
    /// (looked up now only on a tree where some exchange does).
    private func prepare(_ state: RequestState, connection: OpaquePointer, method: UnsafePointer<CChar>, url: UnsafePointer<CChar>) {
        let tree = service.tree
        state.tree = tree
        readSession(state, connection: connection)
        if journal != nil { state.bodyLimit = JournalEntry.bodyLimit }
        guard tree.readsBodies, case .exchange(let index) = tree.tree.resolve(RequestPath(String(cString: url)), method: HTTPMethod(requestMethod: method)),
              tree.tree.exchanges[index].readsBody else { return }
        state.exchangeReadsBody = true
        state.bodyLimit = max(state.bodyLimit, VariantConditions.bodyLimit)
    }

    /// Looks the session header up where libmicrohttpd keeps the headers: a request without it pays this
    /// one lookup and nothing more.
    private func readSession(_ state: RequestState, connection: OpaquePointer) {
        var value: UnsafePointer<CChar>?
        var size = 0
        let found = sessionHeader.withUnsafeBufferPointer { name in
            MHD_lookup_connection_value_n(connection, .HEADER_KIND, name.baseAddress, name.count - 1, &value, &size)
        }
        guard found == .YES, let value else { return }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: size)
        switch SessionName(headerValue: bytes) {
        case .none: break
        case .named(let name): state.session = service.sessions.session(named: name)
        case .refused(let reason): state.sessionRefusal = "the \(configuration.sessionHeader) header cannot name a session: \(reason)"
        }
    }

    // The C callbacks, on libmicrohttpd's threads: `cls` is this server, `con_cls` holds a retained
    // `RequestState` per request, from the request line to the completion notice.

    /// Called as soon as the request line is read: the state created here is the request's `con_cls`.
    private static let requestStartHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, _ in
        guard let cls else { return nil }
        let server = Unmanaged<MockServer>.fromOpaque(cls).takeUnretainedValue()
        var query = ""
        if let uri, let mark = strchr(uri, Int32(UInt8(ascii: "?"))) {
            query = String(cString: mark + 1)
        }
        server.inFlight.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(RequestState(query: query, timed: server.timed)).toOpaque()
    }

    /// Called once with the headers, once per piece of body, then once more at the end. Returning `.NO`
    /// makes libmicrohttpd close the connection without an answer.
    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
        guard let cls, let connection, let url, let method, let uploadSize, let raw = context?.pointee else { return .NO }
        let server = Unmanaged<MockServer>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        guard state.headersSeen else {
            // Headers are in; the body (if any) comes in the next calls.
            state.headersSeen = true
            server.prepare(state, connection: connection, method: method, url: url)
            return .YES
        }
        if uploadSize.pointee > 0 {
            let size = uploadSize.pointee
            state.bodySize += size
            let keep = min(size, state.bodyLimit - state.body.count)
            if keep > 0, let upload {
                upload.withMemoryRebound(to: UInt8.self, capacity: keep) {
                    state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: keep))
                }
            }
            uploadSize.pointee = 0  // consumed: bodies are never buffered whole
            return .YES
        }
        return server.answer(state, on: connection, method: method, url: url)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, _, context, _ in
        guard let cls, let context, let raw = context.pointee else { return }
        let server = Unmanaged<MockServer>.fromOpaque(cls).takeUnretainedValue()
        Unmanaged<RequestState>.fromOpaque(raw).release()
        context.pointee = nil
        if server.inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue == 0, server.stopping.load(ordering: .sequentiallyConsistent) {
            server.drained.signal()
        }
    }
}
