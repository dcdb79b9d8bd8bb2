import EspressoMartini
import Logging
import Synchronization

/// Forwards requests to the proxy's target (doc/recording.md): one thread drives every transfer at once
/// through one `UpstreamClient`, which keeps the connections to the target alive. libmicrohttpd's threads
/// only hand requests, body pieces and wake-ups over (`forward`, `unpause`, `cancel`): nothing slow runs on
/// them. Transfers are reused. The thread sleeps while nothing is forwarded.
final class Forwarder: @unchecked Sendable {
    let proxy: ProxyConfiguration
    /// `http` or `https`: how clients reach this server, for `X-Forwarded-Proto`.
    let scheme: String
    /// Writes what is recorded; nil when nothing is.
    let recording: RecordingWriter?
    /// Spy mode: each recording reloads the tree, and the client's answer ends once it has.
    let recordingReloads: Bool
    private let logger: Logger
    private let multi: any UpstreamClient
    private let timeoutNanoseconds: UInt64
    /// What every forwarded request's URL and headers share, as bytes (`Forwarder+request.swift`).
    let requestParts: ForwardedRequestParts

    private struct Commands {
        var started: [ForwardedExchange] = []
        var unpaused: [ForwardedExchange] = []
        var cancelled: [ForwardedExchange] = []
        var stopping = false

        var hasWork: Bool { !started.isEmpty || !unpaused.isEmpty || !cancelled.isEmpty || stopping }
    }

    private let commands = Locked(Commands())
    /// Ended transfers, for the next ones.
    private let spareTransfers = Locked<[any UpstreamTransfer]>([])
    private var thread: SystemThread?
    // On the forwarding thread only.
    private var running: [ObjectIdentifier: ForwardedExchange] = [:]
    /// Exchanges whose head was read during this turn of the loop, handed over once libcurl has read all it can.
    private var headsRead: [ForwardedExchange] = []
    /// When transfers are next looked at for the proxy's timeout (monotonic nanoseconds), and how often:
    /// every second, or four times within a shorter timeout.
    private var nextOverdueCheck: UInt64 = 0
    private let overdueCheckInterval: UInt64

    /// Starts the forwarding thread, with the client of its own for a plain-HTTP target given by address,
    /// else libcurl; throws when libcurl is needed and cannot be loaded.
    init(proxy: ProxyConfiguration, scheme: String, recording: RecordingWriter?, logger: Logger) throws(HTTPClientUnavailable) {
        let multi: any UpstreamClient
        if let plain = PlainHTTPClient(target: proxy.target, connectionsKept: 256) {
            multi = plain
        } else {
            if let problem = loadHTTPClient() { throw problem }
            let settings = HTTPClientSettings(connectTimeout: proxy.timeout, verifiesTLS: proxy.verifiesTLS, certificateAuthorities: proxy.certificateAuthorities)
            guard let curl = HTTPClientMulti(connectionsKept: 256, settings: settings) else { throw HTTPClientUnavailable(description: "libcurl cannot make a multi handle") }
            multi = curl
        }
        self.proxy = proxy
        self.scheme = scheme
        self.recording = recording
        recordingReloads = recording != nil && proxy.forwards == .misses
        self.logger = logger
        self.multi = multi
        timeoutNanoseconds = UInt64(proxy.timeout * 1_000_000_000)
        overdueCheckInterval = max(1_000_000, min(1_000_000_000, timeoutNanoseconds / 4))
        requestParts = ForwardedRequestParts(proxy: proxy, scheme: scheme)
        thread = SystemThread { [self] in run() }
    }

    /// Starts forwarding `request` (`rawTarget` its path and query as the request line had them), decided by
    /// `decision`, answering on `connection` (`hangUps` ends its answer at once when the client leaves while it
    /// waits for bytes); its body, if it has one (`body`), comes through the exchange's `push`. Nil when no
    /// transfer can be made.
    func forward(
        _ request: Request, decision: Decision, rawTarget: String, body: UpstreamRequest.Body, on connection: any RequestConnection, hangUps: HangUpWatcher?
    ) -> ForwardedExchange? {
        guard let transfer = spareTransfers.withLock({ $0.popLast() }) ?? multi.makeTransfer() else { return nil }
        var recorded: ForwardedExchange.RecordedRequest?
        if recording != nil {
            if let method = request.knownMethod {
                recorded = ForwardedExchange.RecordedRequest(
                    method: method, path: request.path, rawQuery: request.rawQuery, headers: request.headers.all, hasBody: body != .none
                )
            } else {
                logger.notice("\(request.method) \(request.path) is forwarded but not recorded: no method folder can be named \(request.method)")
            }
        }
        let exchange = ForwardedExchange(
            transfer: transfer, decision: decision, request: request, connection: connection, hangUps: hangUps, forwarder: self, recording: recorded
        )
        writeRequest(request, rawTarget: rawTarget, hasBody: body != .none, connection: connection, into: transfer.text)
        transfer.configure(UpstreamRequest(method: request.method, body: body), receiver: exchange)
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

    // MARK: The forwarding thread

    private func run() {
        // Commands are swapped out into these, so that neither side allocates arrays for each turn.
        var taken = Commands()
        while true {
            commands.withLock { commands in
                swap(&commands.started, &taken.started)
                swap(&commands.unpaused, &taken.unpaused)
                swap(&commands.cancelled, &taken.cancelled)
                taken.stopping = commands.stopping
            }
            for exchange in taken.started {
                multi.add(exchange.transfer)
                running[ObjectIdentifier(exchange.transfer)] = exchange
            }
            for exchange in taken.unpaused where running[ObjectIdentifier(exchange.transfer)] === exchange {
                exchange.resumedByClient()
                exchange.transfer.unpause()
            }
            for exchange in taken.cancelled where running[ObjectIdentifier(exchange.transfer)] === exchange {
                end(exchange, TransferFailure(timedOut: false, reason: "the client went away"))
            }
            if taken.stopping {
                for exchange in running.values {
                    end(exchange, TransferFailure(timedOut: false, reason: "the server is stopping", serverStopping: true))
                }
                return
            }
            taken.started.removeAll(keepingCapacity: true)
            taken.unpaused.removeAll(keepingCapacity: true)
            taken.cancelled.removeAll(keepingCapacity: true)
            multi.runTimers()
            settle()
            let now = Monitor<Int>.coarseNow()  // the clock the exchanges stamp their progress with
            if now >= nextOverdueCheck {
                nextOverdueCheck = now + overdueCheckInterval
                for exchange in running.values where exchange.isOverdue(now: now, timeout: timeoutNanoseconds) {
                    end(exchange, TransferFailure(timedOut: true, reason: "no answer from the target within \(proxy.timeout) s"))
                }
            }
            // libcurl's own timers shorten the wait.
            multi.wait(milliseconds: running.isEmpty ? 3_600_000 : Int(overdueCheckInterval / 1_000_000)) { commands.withLock { $0.hasWork } }
            settle()
        }
    }

    /// Ends the transfers libcurl has finished, then hands the heads read meanwhile to their clients: a
    /// small answer read whole goes with its head.
    private func settle() {
        for (transfer, failure) in multi.ended() {
            if let exchange = running[ObjectIdentifier(transfer)] { end(exchange, failure) }
        }
        for exchange in headsRead { exchange.deliverHead() }
        headsRead.removeAll(keepingCapacity: true)
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
