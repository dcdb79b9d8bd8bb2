import EspressoMartini
import Glibc

/// What one serving loop forwards: the requests of its connections go through its own `UpstreamClient`,
/// whose connections to the target are in the loop's epoll set, and their answers come back on the loop's
/// thread, which resumes the client's connection without waking another thread. Everything here runs on
/// that thread; a call from another one is handed to it (`EventLoop.execute`). Starts, unpauses and
/// cancels asked for while libmicrohttpd runs its callbacks are carried out once it has returned, before
/// the loop waits: no transfer moves inside a callback of libmicrohttpd's, and a request's head and body
/// go to the target together. Transfers are reused.
final class ForwardingLane: @unchecked Sendable {
    unowned let forwarder: Forwarder
    /// Not retained: the loop keeps its lane.
    unowned(unsafe) let loop: any EventLoop
    private let client: any UpstreamClient

    // On the loop's thread only.
    /// The exchanges whose transfers run, each at its transfer's `lanePosition`.
    private var running: [ForwardedExchange] = []
    private var started: [ForwardedExchange] = []
    private var unpaused: [ForwardedExchange] = []
    private var cancelled: [ForwardedExchange] = []
    /// Exchanges whose head was read during this turn of the loop, handed over once the client has read all
    /// it can.
    private var headsRead: [ForwardedExchange] = []
    /// Ended transfers, for the next ones.
    private var spareTransfers: [any UpstreamTransfer] = []
    /// When transfers are next looked at for the proxy's timeout (`Monitor.coarseNow()`).
    private var nextOverdueCheck: UInt64 = 0
    /// The server stops: nothing more is forwarded.
    private var stopped = false

    init(forwarder: Forwarder, loop: any EventLoop, client: any UpstreamClient) {
        self.forwarder = forwarder
        self.loop = loop
        self.client = client
    }

    /// See `Forwarder.forward`. On the loop's thread: the transfer starts once libmicrohttpd has returned.
    func forward(
        _ request: Request, decision: Decision, rawTarget: String, body: UpstreamRequest.Body,
        on connection: any RequestConnection
    ) -> ForwardedExchange? {
        loop.assertInEventLoop()
        guard let transfer = spareTransfers.popLast() ?? client.makeTransfer() else { return nil }
        var tap: RecordingTap?
        if let recording = forwarder.recording {
            if let method = request.knownMethod {
                tap = RecordingTap(request: request, method: method, hasBody: body != .none, writer: recording)
            } else {
                forwarder.logger.notice(
                    "\(request.method) \(request.path) is forwarded but not recorded: no method folder can be named \(request.method)"
                )
            }
        }
        let exchange = ForwardedExchange(
            transfer: transfer, decision: decision, request: request, connection: connection, lane: self, tap: tap)
        forwarder.writeRequest(request, rawTarget: rawTarget, body: body, connection: connection, into: transfer.text)
        transfer.configure(UpstreamRequest(method: request.method, body: body), receiver: exchange)
        if stopped {
            exchange.transferEnded(
                TransferFailure(timedOut: false, reason: "the server is stopping", serverStopping: true))
        } else {
            started.append(exchange)
        }
        return exchange
    }

    /// The exchange's transfer may move again (bytes to send, room for bytes received). Any thread.
    func unpause(_ exchange: ForwardedExchange) {
        guard loop.inEventLoop else { return loop.execute { [self] in unpause(exchange) } }
        unpaused.append(exchange)
    }

    /// Stops the exchange's transfer if it still runs (the client went away). Any thread.
    func cancel(_ exchange: ForwardedExchange) {
        guard loop.inEventLoop else { return loop.execute { [self] in cancel(exchange) } }
        cancelled.append(exchange)
    }

    /// `exchange` has read its head (called by its transfer's callbacks).
    func headRead(_ exchange: ForwardedExchange) {
        loop.assertInEventLoop()
        headsRead.append(exchange)
    }

    /// Ends every transfer (see `Forwarder.stop`); returns once done. Not on the loop's thread.
    func stop() {
        loop.performAndWait { [self] in
            stopped = true
            for exchange in started { exchange.transferEnded(Self.stopping) }
            started.removeAll()
            while let exchange = running.last { end(exchange, Self.stopping) }
        }
    }

    private static let stopping = TransferFailure(
        timedOut: false, reason: "the server is stopping", serverStopping: true)

    // MARK: The loop's turn

    /// Before the loop waits: starts, unpauses and cancels what was asked, moves on the transfers whose
    /// time has come, hands over what ended, ends the overdue; returns how long the loop may wait, at most
    /// `milliseconds`.
    func beforeWait(milliseconds: Int) -> Int {
        loop.assertInEventLoop()
        if !started.isEmpty {
            for exchange in started {
                exchange.transfer.lanePosition = running.count
                running.append(exchange)
                client.add(exchange.transfer)
            }
            started.removeAll(keepingCapacity: true)
        }
        if !unpaused.isEmpty {
            for exchange in unpaused where runs(exchange) {
                exchange.resumedByClient()
                exchange.transfer.unpause()
            }
            unpaused.removeAll(keepingCapacity: true)
        }
        if !cancelled.isEmpty {
            for exchange in cancelled where runs(exchange) {
                end(exchange, TransferFailure(timedOut: false, reason: "the client went away"))
            }
            cancelled.removeAll(keepingCapacity: true)
        }
        client.runTimers()
        settle()
        guard !running.isEmpty else { return client.prepareWait(milliseconds: milliseconds) }
        let now = MonotonicClock.coarseNow()  // the clock the exchanges stamp their progress with
        if now >= nextOverdueCheck {
            nextOverdueCheck = now + forwarder.overdueCheckInterval
            for exchange in running.filter({ $0.isOverdue(now: now, timeout: forwarder.timeoutNanoseconds) }) {
                end(
                    exchange,
                    TransferFailure(
                        timedOut: true, reason: "no answer from the target within \(forwarder.proxy.timeout) s"))
            }
        }
        return client.prepareWait(milliseconds: min(milliseconds, Int(forwarder.overdueCheckInterval / 1_000_000)))
    }

    /// A descriptor of the client's is ready.
    func ready(token: UInt64, events: UInt32) {
        loop.assertInEventLoop()
        client.ready(token: token, events: events)
    }

    /// After the loop's wait: hands over what the ready descriptors brought.
    func afterWait() {
        settle()
    }

    /// Ends the transfers the client has finished, then hands the heads read meanwhile to their clients: a
    /// small answer read whole goes with its head.
    private func settle() {
        client.takeEnded { transfer, failure in
            let position = transfer.lanePosition
            if position >= 0, running[position].transfer === transfer { end(running[position], failure) }
        }
        guard !headsRead.isEmpty else { return }
        for exchange in headsRead { exchange.deliverHead() }
        headsRead.removeAll(keepingCapacity: true)
    }

    private func runs(_ exchange: ForwardedExchange) -> Bool {
        let position = exchange.transfer.lanePosition
        return position >= 0 && running[position] === exchange
    }

    /// Takes a running exchange out (the last one moves into its place) and ends it.
    private func end(_ exchange: ForwardedExchange, _ failure: TransferFailure?) {
        client.remove(exchange.transfer)
        let position = exchange.transfer.lanePosition
        let last = running.removeLast()
        if last !== exchange {
            running[position] = last
            last.transfer.lanePosition = position
        }
        exchange.transfer.lanePosition = -1
        exchange.transferEnded(failure)
        if spareTransfers.count < 64 { spareTransfers.append(exchange.transfer) }
    }
}
