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
    private let current: Mutex<ServingTree>
    /// Requests between their first call into the handler and libmicrohttpd's completion notice.
    let inFlight = Atomic<Int>(0)
    /// Delayed requests waiting for their timer, so that shut-down can answer them early if it must.
    let suspended = Mutex<[ObjectIdentifier: RequestState]>([:])
    private var daemon: OpaquePointer?

    /// `127.0.0.1:8080` or `[::1]:8080`, with the real port; set by `start()`.
    public private(set) var address = ""

    public init(configuration: ServerConfiguration, tree: ExchangeTree, counters: CallCounters = CallCounters(), logger: Logger) {
        self.configuration = configuration
        self.counters = counters
        self.logger = logger
        self.current = Mutex(ServingTree(tree, counters: counters, configuration: configuration))
    }

    /// The tree requests are answered from right now.
    var servingTree: ServingTree { current.withLock { $0 } }

    /// Puts a new tree in service in one step; requests already running finish on the old one.
    /// Counters carry over for every exchange that still exists.
    public func install(_ tree: ExchangeTree) {
        let serving = ServingTree(tree, counters: counters, configuration: configuration)
        current.withLock { $0 = serving }
        counters.retain(only: Set(tree.exchanges.map(\.counterKey)))
    }

    /// Binds the address and starts answering. Throws with a message naming the address when it cannot.
    public func start() throws {
        let socket: ListenSocket
        do {
            socket = try ListenSocket(hostname: configuration.hostname, port: configuration.port)
        } catch let error as ListenSocket.BindError {
            throw StartError(description: error.description)
        }
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let poolSize = UInt32(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let daemon = em_start_daemon(
            flags, socket.descriptor, poolSize, 30, 4096, MockServer.accessHandler, MockServer.completedHandler, context
        ) else {
            close(socket.descriptor)
            throw StartError(description: "cannot start the HTTP listener on \(socket.address)")
        }
        self.daemon = daemon
        self.address = socket.address
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

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, _, uploadSize, context in
        guard let cls, let connection, let url, let method, let uploadSize, let context else { return .NO }
        let server = Unmanaged<MockServer>.fromOpaque(cls).takeUnretainedValue()
        guard let raw = context.pointee else {
            // First call: headers are in. Keep state for the rest of the request.
            let state = RequestState()
            context.pointee = Unmanaged.passRetained(state).toOpaque()
            server.inFlight.add(1, ordering: .relaxed)
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            state.bodySize += uploadSize.pointee
            uploadSize.pointee = 0  // the body is read and dropped; never buffered whole
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
