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
    let decider: Decider
    /// The last requests, for the admin API; nil when the admin API is off.
    let journal: RequestJournal?
    let sender: Sender
    /// Whether the access log is on: requests are timed.
    let timed: Bool
    /// The session header's name as a C string (its NUL included).
    let sessionHeader: [CChar]
    /// Requests keep their target as sent, for forwarding (with a proxy).
    let keepsTargets: Bool
    /// Requests between their request line and libmicrohttpd's completion notice.
    let inFlight = Atomic<Int>(0)
    /// Set by `stop`; then the request that brings `inFlight` to 0 signals `drained`.
    let stopping = Atomic<Bool>(false)
    /// What `stop` waits on, signalled under its lock (its value is unused) so that no signal is missed.
    let drained = Monitor(false)
    private var daemon: HTTPDaemon?
    /// With `"proxy"`: forwards what the tree does not answer (or everything, when recording).
    let forwarder: Forwarder?
    /// With recording: writes what the target answers into the tree.
    private let recording: RecordingWriter?
    /// What was recorded, once the server has stopped (nil without recording).
    public private(set) var recorded: (exchanges: Int, responses: Int, notRecorded: Int)?

    /// `127.0.0.1:8080` or `[::1]:8080`, with the real port; set by `start()`.
    public private(set) var address = ""

    /// `decider` decides with `service`'s trees (its admin API journaling into `journal`); `scripts` runs the
    /// scripts it decides on; `accessLog` receives one record per answered request (nil turns it off). With
    /// `"proxy"`, requests go to its target through libcurl (loaded now), and with its `record`, `recorder`
    /// writes the answers into the tree. Throws when libcurl cannot be loaded or the recording cannot start.
    public init(
        configuration: ServerConfiguration, service: TreeService, decider: Decider, journal: RequestJournal?,
        scripts: any ScriptEngine,
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
                    recording = try RecordingWriter(
                        recorder: recorder, reloading: proxy.forwards == .misses ? service : nil, logger: logger)
                }
                forwarder = try Forwarder(
                    proxy: proxy, scheme: configuration.tls == nil ? "http" : "https", recording: recording,
                    logger: logger)
            } catch {
                _ = recording?.finish()
                throw StartError(description: "\(error)")
            }
        }
        self.forwarder = forwarder
        self.recording = recording
        sender = Sender(
            accessLog: accessLog, journal: journal, cors: configuration.cors, scripts: scripts, forwarder: forwarder)
        timed = accessLog != nil
        sessionHeader = configuration.sessionHeader.utf8CString.map { $0 }
        keepsTargets = forwarder != nil
    }

    /// Starts answering on `socket` (the daemon takes it over), then reads the tree's small files while
    /// requests are already answered. Throws with a message naming the address when it cannot. With
    /// `tls`, `installCertificate` must have succeeded first.
    public func start(on socket: ListenSocket) throws(StartError) {
        let connectionLimit = Self.raiseDescriptorLimit(for: configuration.connectionLimit)
        decider.templates.setMockServer(scheme + "://" + socket.address)
        // One loop per core drives a libmicrohttpd daemon of its own, and with a proxy the connections to the target.
        var loops: [ServingLoop] = []
        for _ in 0..<Self.coreCount {
            guard let loop = ServingLoop() else {
                close(socket.descriptor)
                throw StartError(
                    description: "cannot start the HTTP listener on \(socket.address): no epoll set can be made")
            }
            if let forwarder {
                guard let lane = forwarder.makeLane(on: loop) else {
                    close(socket.descriptor)
                    throw StartError(
                        description: "cannot start forwarding to \(forwarder.proxy.target): no HTTP client can be made")
                }
                loop.lane = lane
            }
            loops.append(loop)
        }
        guard
            let daemon = HTTPDaemon(
                socket: socket.descriptor, ipv6: socket.isIPv6, connectionTimeout: configuration.connectionTimeout,
                connectionLimit: connectionLimit, handler: self, tlsCertificateCallback: certificateCallback,
                loops: loops
            )
        else {
            close(socket.descriptor)
            throw StartError(description: "cannot start the HTTP listener on \(socket.address)")
        }
        self.daemon = daemon
        self.address = socket.address
        service.tree.readFilesAhead()
    }

    /// The serving loops, and the script threads at most: one per core.
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
    public func stop(grace seconds: Double = 10) {
        guard let daemon else { return }
        daemon.quiesce()
        stopping.store(true, ordering: .sequentiallyConsistent)
        // Script calls not yet started are answered 503 now; running ones finish within their timeout.
        sender.scripts.stop()
        sender.endArrivingBodies(endlessOnly: true)
        waitUntilDrained(for: seconds)
        sender.resumeAll(scriptLimit: configuration.scriptTimeout + 1)
        // Forwarded requests still waiting get a 503 or a cut answer; what was received whole is still
        // written, which lets the answers held back for it end.
        forwarder?.stop()
        if let recording {
            let summary = recording.finish()
            recorded = (summary.folders.count, summary.responses, summary.notRecorded)
        }
        waitUntilDrained(for: 1)
        daemon.stop()
        self.daemon = nil
    }

    /// Returns once no request is in flight, or after `limit`.
    private func waitUntilDrained(for seconds: Double) {
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(seconds)
        drained.wait(
            until: { _ in
                inFlight.load(ordering: .sequentiallyConsistent) == 0 || MonotonicClock.now() >= deadline
            }, wakingAt: { _ in deadline })
    }
}
