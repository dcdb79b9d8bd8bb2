import CMicroHTTPD
import Dispatch
import EspressoMartini
import Glibc
import Logging
import Synchronization

/// The HTTP side of espressomartini: a libmicrohttpd daemon (internal polling thread with epoll and a
/// thread pool sized to the cores) answering from the `ServingTree` currently installed.
public final class MockServer: @unchecked Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    let configuration: ServerConfiguration
    let counters: CallCounters
    let logger: Logger
    private let current: Locked<ServingTree>
    /// Requests between their request line and libmicrohttpd's completion notice.
    let inFlight = Atomic<Int>(0)
    /// Delayed requests waiting for their timer, so that shut-down can answer them early if it must.
    let suspended = Locked<[ObjectIdentifier: RequestState]>([:])
    private var daemon: OpaquePointer?
    /// The last requests, for the admin API; nil when the admin API is off.
    let journal: RequestJournal?
    let loader: TreeLoader
    /// Receives one record per answered request; nil when the access log is off (level above INFO).
    let accessLog: AccessLog?
    /// Reloads done; its lock lets one reload run at a time, whatever asked for it (file changes,
    /// SIGHUP, the admin API).
    let reloads = Locked(0)

    /// `127.0.0.1:8080` or `[::1]:8080`, with the real port; set by `start()`.
    public private(set) var address = ""

    public init(
        configuration: ServerConfiguration, tree: ExchangeTree, loader: TreeLoader, counters: CallCounters = CallCounters(),
        logger: Logger, accessLog: AccessLog?
    ) {
        self.configuration = configuration
        self.counters = counters
        self.logger = logger
        self.loader = loader
        self.accessLog = accessLog
        self.journal = configuration.admin ? RequestJournal() : nil
        self.current = Locked(ServingTree(tree, counters: counters, configuration: configuration))
    }

    /// The tree requests are answered from right now.
    var servingTree: ServingTree { current.withLock { $0 } }

    /// Puts a new tree in service in one step; requests already running finish on the old one.
    /// Counters carry over for every exchange that still exists. Returns once its small files are read.
    public func install(_ tree: ExchangeTree) {
        let serving = ServingTree(tree, counters: counters, configuration: configuration)
        current.withLock { $0 = serving }
        counters.retain(only: Set(tree.exchanges.map(\.counterKey)))
        serving.readFilesAhead()
    }

    /// Starts answering on `socket`, then reads the tree's small files (requests are answered
    /// meanwhile). Throws with a message naming the address when it cannot.
    public func start(on socket: ListenSocket) throws(StartError) {
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let poolSize = UInt32(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let connectionLimit = Self.raiseDescriptorLimit(for: configuration.connectionLimit)
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let daemon = em_start_daemon(
            flags, socket.descriptor, poolSize, UInt32(configuration.connectionTimeout), UInt32(connectionLimit),
            MockServer.accessHandler, MockServer.completedHandler, MockServer.requestStartHandler, context
        ) else {
            close(socket.descriptor)
            throw StartError(description: "cannot start the HTTP listener on \(socket.address)")
        }
        self.daemon = daemon
        self.address = socket.address
        servingTree.readFilesAhead()
    }

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
    /// still waiting at once, then stops. libmicrohttpd must not be stopped with suspended connections.
    public func stop(grace: Duration = .seconds(10)) {
        guard let daemon else { return }
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        let deadline = ContinuousClock.now + grace
        while inFlight.load(ordering: .acquiring) > 0 && ContinuousClock.now < deadline {
            usleep(10_000)
        }
        for state in suspended.withLock({ Array($0.values) }) { resume(state) }
        let lastCall = ContinuousClock.now + .seconds(1)
        while inFlight.load(ordering: .acquiring) > 0 && ContinuousClock.now < lastCall {
            usleep(10_000)
        }
        MHD_stop_daemon(daemon)
        self.daemon = nil
    }

    /// Ends a request's delay: exactly once, whoever (the timer or shut-down) comes first.
    func resume(_ state: RequestState) {
        guard !state.resumed.exchange(true, ordering: .acquiringAndReleasing), let connection = state.connection else { return }
        suspended.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(state)) }
        MHD_resume_connection(connection)
    }

    // The C callbacks: `cls` is this server, `con_cls` holds a retained `RequestState` per request.

    /// Called as soon as the request line is read: the state created here is the request's `con_cls`.
    private static let requestStartHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, _ in
        guard let cls else { return nil }
        let server = Unmanaged<MockServer>.fromOpaque(cls).takeUnretainedValue()
        var query = ""
        if server.journal != nil, let uri, let mark = strchr(uri, Int32(UInt8(ascii: "?"))) {
            query = String(cString: mark + 1)
        }
        server.inFlight.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(RequestState(query: query, timed: server.accessLog != nil)).toOpaque()
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
        guard let cls, let connection, let url, let method, let uploadSize, let raw = context?.pointee else { return .NO }
        let server = Unmanaged<MockServer>.fromOpaque(cls).takeUnretainedValue()
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        guard state.headersSeen else {
            state.headersSeen = true  // headers are in; the body (if any) comes in the next calls
            return .YES
        }
        if uploadSize.pointee > 0 {
            let size = uploadSize.pointee
            state.bodySize += size
            let keep = min(size, JournalEntry.bodyLimit - state.bodyPrefix.count)
            if server.journal != nil, keep > 0, let upload {
                upload.withMemoryRebound(to: UInt8.self, capacity: keep) {
                    state.bodyPrefix.append(contentsOf: UnsafeBufferPointer(start: $0, count: keep))
                }
            }
            uploadSize.pointee = 0  // consumed: bodies are never buffered whole
            return .YES
        }
        return server.respond(to: state, connection: connection, method: method, url: url)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, _, context, _ in
        guard let cls, let context, let raw = context.pointee else { return }
        let server = Unmanaged<MockServer>.fromOpaque(cls).takeUnretainedValue()
        Unmanaged<RequestState>.fromOpaque(raw).release()
        context.pointee = nil
        server.inFlight.subtract(1, ordering: .releasing)
    }
}
