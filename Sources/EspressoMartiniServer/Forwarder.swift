import EspressoMartini
import Logging
import Synchronization

/// Forwards requests to the proxy's target (doc/recording.md): one thread drives every transfer at once
/// through one `HTTPClientMulti`, which keeps the connections to the target alive. libmicrohttpd's threads
/// only hand requests, body pieces and wake-ups over (`forward`, `unpause`, `cancel`): nothing slow runs on
/// them. Transfers' easy handles are reused. The thread sleeps while nothing is forwarded.
final class Forwarder: @unchecked Sendable {
    let proxy: ProxyConfiguration
    /// `http` or `https`: how clients reach this server, for `X-Forwarded-Proto`.
    let scheme: String
    /// Writes what is recorded; nil when nothing is.
    let recording: RecordingWriter?
    /// Spy mode: each recording reloads the tree, and the client's answer ends once it has.
    let recordingReloads: Bool
    private let logger: Logger
    private let multi: HTTPClientMulti
    private let timeoutNanoseconds: UInt64

    private struct Commands {
        var started: [ForwardedExchange] = []
        var unpaused: [ForwardedExchange] = []
        var cancelled: [ForwardedExchange] = []
        var stopping = false
    }

    private let commands = Locked(Commands())
    /// Easy handles of ended transfers, for the next ones.
    private let spareTransfers = Locked<[HTTPClientTransfer]>([])
    private var thread: SystemThread?
    // On the forwarding thread only.
    private var running: [ObjectIdentifier: ForwardedExchange] = [:]
    /// Exchanges whose head was read during this turn of the loop, handed over once libcurl has read all it can.
    private var headsRead: [ForwardedExchange] = []

    /// Loads libcurl and starts the forwarding thread; throws when libcurl cannot be loaded.
    init(proxy: ProxyConfiguration, scheme: String, recording: RecordingWriter?, logger: Logger) throws(HTTPClientUnavailable) {
        if let problem = loadHTTPClient() { throw problem }
        guard let multi = HTTPClientMulti(connectionsKept: 256) else { throw HTTPClientUnavailable(description: "libcurl cannot make a multi handle") }
        self.proxy = proxy
        self.scheme = scheme
        self.recording = recording
        recordingReloads = recording != nil && proxy.forwards == .misses
        self.logger = logger
        self.multi = multi
        timeoutNanoseconds = UInt64(proxy.timeout * 1_000_000_000)
        thread = SystemThread { [self] in run() }
    }

    /// Starts forwarding `request` (`rawTarget` its path and query as the request line had them), decided by
    /// `decision`, answering on `connection` (`hangUps` ends its answer at once when the client leaves while it
    /// waits for bytes); its body, if it has one (`body`), comes through the exchange's `push`. Nil when no
    /// transfer can be made.
    func forward(
        _ request: Request, decision: Decision, rawTarget: String, body: UpstreamRequest.Body, client: ClientAddress?, on connection: any RequestConnection,
        hangUps: HangUpWatcher?
    ) -> ForwardedExchange? {
        guard let transfer = spareTransfers.withLock({ $0.popLast() }) ?? HTTPClientTransfer() else { return nil }
        let headers = request.headers.all
        var recorded: ForwardedExchange.RecordedRequest?
        if recording != nil {
            if let method = request.knownMethod {
                recorded = ForwardedExchange.RecordedRequest(
                    method: method, path: request.path, rawQuery: request.rawQuery, headers: headers, hasBody: body != .none
                )
            } else {
                logger.notice("\(request.method) \(request.path) is forwarded but not recorded: no method folder can be named \(request.method)")
            }
        }
        let exchange = ForwardedExchange(
            transfer: transfer, decision: decision, request: request, connection: connection, hangUps: hangUps, forwarder: self, recording: recorded
        )
        let upstream = UpstreamRequest(
            url: proxy.target.url(for: Self.originForm(rawTarget)), method: request.method, headerLines: headerLines(headers, client: client),
            body: body, connectTimeout: proxy.timeout, verifiesTLS: proxy.verifiesTLS, certificateAuthorities: proxy.certificateAuthorities
        )
        transfer.configure(upstream, receiver: exchange)
        let refused = commands.withLock { commands -> Bool in
            guard !commands.stopping else { return true }
            commands.started.append(exchange)
            return false
        }
        if refused {
            exchange.transferEnded(TransferFailure(timedOut: false, reason: "the server is stopping", serverStopping: true))
        } else {
            multi.wakeup()
        }
        return exchange
    }

    /// The exchange's transfer may move again (bytes to send, room for bytes received). Any thread.
    func unpause(_ exchange: ForwardedExchange) {
        commands.withLock { $0.unpaused.append(exchange) }
        multi.wakeup()
    }

    /// Stops the exchange's transfer if it still runs (the client went away). Any thread.
    func cancel(_ exchange: ForwardedExchange) {
        commands.withLock { $0.cancelled.append(exchange) }
        multi.wakeup()
    }

    /// `exchange` has read its head (called by its transfer's callbacks, on the forwarding thread).
    func headRead(_ exchange: ForwardedExchange) {
        headsRead.append(exchange)
    }

    /// Ends every transfer (a request not answered yet gets `503`, an answer being sent is cut short), and
    /// the thread. Call once.
    func stop() {
        commands.withLock { $0.stopping = true }
        multi.wakeup()
        thread?.join()
        thread = nil
    }

    /// The request-line target as a path and query: an absolute-form target (`http://host/path`) loses its
    /// scheme and host.
    static func originForm(_ target: String) -> String {
        guard !target.hasPrefix("/"), let colon = target.firstIndex(of: ":"), target[colon...].hasPrefix("://") else { return target }
        let rest = target[target.index(colon, offsetBy: 3)...]
        return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
    }

    /// The request's headers as the target gets them: without the hop-by-hop ones, `Host` (the target's
    /// own), `Content-Length` (libcurl sets it from the body) and `Expect`; `X-Forwarded-For` extended with
    /// the client, `X-Forwarded-Proto` and `X-Forwarded-Host` set; the proxy's `headers` in place of the
    /// client's of the same names. `Accept:` and `Expect:` keep libcurl from adding its own.
    func headerLines(_ headers: [HTTPHeader], client: ClientAddress?) -> [String] {
        let hopByHop = HopByHopHeaders(in: headers)
        let configured = proxy.headers.map { $0.name.lowercased() }
        var lines: [String] = []
        var forwardedFor: [String] = []
        var host: String?
        var sendsAccept = configured.contains("accept")
        for header in headers {
            if header.isNamed("host") {
                host = header.value
            } else if header.isNamed("x-forwarded-for") {
                forwardedFor.append(header.value)
            } else if Self.replaced.contains(where: { header.isNamed($0) }) || hopByHop.contains(header.name)
                        || configured.contains(where: { header.isNamed($0) }) {
                continue
            } else {
                if header.isNamed("accept") { sendsAccept = true }
                lines.append(Self.line(header))
            }
        }
        forwardedFor.append(client?.text ?? "unknown")
        lines.append("X-Forwarded-For: " + forwardedFor.joined(separator: ", "))
        lines.append("X-Forwarded-Proto: " + scheme)
        if let host { lines.append("X-Forwarded-Host: " + host) }
        lines += proxy.headers.map(Self.line)
        if !sendsAccept { lines.append("Accept:") }
        lines.append("Expect:")
        return lines
    }

    /// Client headers the forwarded request does not carry: libcurl sets the body's length, `Expect` is
    /// answered here, and the `X-Forwarded-*` headers are set anew.
    private static let replaced = ["content-length", "expect", "x-forwarded-proto", "x-forwarded-host"]

    /// `Name: value`; `Name;` for an empty value (`Name:` would remove the header).
    private static func line(_ header: HTTPHeader) -> String {
        header.value.isEmpty ? header.name + ";" : header.name + ": " + header.value
    }

    // MARK: The forwarding thread

    private func run() {
        while true {
            let batch = commands.withLock { commands -> Commands in
                defer {
                    commands.started = []
                    commands.unpaused = []
                    commands.cancelled = []
                }
                return commands
            }
            for exchange in batch.started {
                multi.add(exchange.transfer)
                running[ObjectIdentifier(exchange.transfer)] = exchange
            }
            for exchange in batch.unpaused where running[ObjectIdentifier(exchange.transfer)] === exchange {
                exchange.resumedByClient()
                exchange.transfer.unpause()
            }
            for exchange in batch.cancelled where running[ObjectIdentifier(exchange.transfer)] === exchange {
                end(exchange, TransferFailure(timedOut: false, reason: "the client went away"))
            }
            if batch.stopping {
                for exchange in running.values {
                    end(exchange, TransferFailure(timedOut: false, reason: "the server is stopping", serverStopping: true))
                }
                return
            }
            multi.perform()
            for (transfer, failure) in multi.ended() {
                if let exchange = running[ObjectIdentifier(transfer)] { end(exchange, failure) }
            }
            for exchange in headsRead { exchange.deliverHead() }
            headsRead.removeAll(keepingCapacity: true)
            let now = Monitor<Int>.now()
            for exchange in running.values where exchange.isOverdue(now: now, timeout: timeoutNanoseconds) {
                end(exchange, TransferFailure(timedOut: true, reason: "no answer from the target within \(proxy.timeout) s"))
            }
            // libcurl's own timers shorten the wait; the overdue check needs a look once a second.
            multi.poll(milliseconds: running.isEmpty ? 3_600_000 : 1000)
        }
    }

    private func end(_ exchange: ForwardedExchange, _ failure: TransferFailure?) {
        multi.remove(exchange.transfer)
        running[ObjectIdentifier(exchange.transfer)] = nil
        exchange.transferEnded(failure)
        spareTransfers.withLock { spares in
            if spares.count < 64 { spares.append(exchange.transfer) }
        }
    }
}
