import EspressoMartini
import Glibc

/// One request forwarded to the proxy's target, on its connection's serving loop. libmicrohttpd's callbacks
/// (the client's body comes in with `push`, the answer goes out once `awaitOutcome` has it, its body read as
/// this object is the answer's `BodySource`), the upstream client's (the transfer's callbacks: the body goes
/// to the target, the target's head and body come back) and the loop's word that the client left all run on
/// the loop's thread, so nothing here is locked. What comes from elsewhere is handed to the loop: the
/// recording writer's word that the recording is written (in spy mode the end of the answer waits for it).
///
/// Both directions stream in bounded memory: at most `highWater` bytes of the client's body wait for the
/// target (beyond, the client's connection is suspended until the target has taken them down to
/// `lowWater`), and at most `highWater` bytes of the answer wait for the client (beyond, the transfer stops
/// receiving until the client has taken them down to `lowWater`), so an answer of any size passes.
final class ForwardedExchange: BodySource, RequestBodySink, UpstreamTransferReceiver, HangUpListener,
    @unchecked Sendable
{
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    /// How the target answered, as far as the client's answer goes.
    enum Outcome {
        case head(UpstreamHead)
        case failed(TransferFailure)
    }

    /// The client's body on its way to the target.
    struct Upload {
        enum Phase {
            /// Bytes still come from the client.
            case open
            /// The client's body is all in.
            case complete
            /// The transfer has ended: the client's bytes go nowhere.
            case dropped
        }

        var phase = Phase.open
        var queue = ByteQueue()
        /// The transfer paused its upload for want of bytes.
        var transferWaits = false
    }

    /// The target's answer on its way to the client (`ForwardedExchange+answer.swift`).
    struct Answer {
        enum Head {
            /// Not read yet.
            case awaited
            /// Read and not yet handed to the client: it goes once the client has read what it could, or the
            /// transfer has ended (`deliverHead`). The client then gets the head with the start of the body,
            /// or a small answer whole, in one write, as from the target: a head sent alone, then a small
            /// body, would wait out a delayed acknowledgement (Nagle's algorithm) on the client's connection.
            case read(UpstreamHead)
            /// A head whose answer has no body, kept from the client until the recording is written (spy mode).
            case held(UpstreamHead)
            /// Handed to the client.
            case delivered(Outcome)
        }

        enum End {
            /// More bytes may come.
            case open
            case complete
            /// Cut short.
            case broken
        }

        var head = Head.awaited
        var body = ByteQueue()
        var end = End.open
        /// The body's length when the target gave one.
        var size: UInt64?
        /// While it is recorded in spy mode, the body's end (its last byte when its length is known, else
        /// its end) waits for the recording to be written and the tree reloaded: the client's next request is
        /// then answered by the tree.
        var holdsBackEnd = false
        /// The transfer stopped receiving for want of room.
        var receivingPaused = false

        /// The head the target answered with, once read.
        var readHead: UpstreamHead? {
            switch head {
            case .awaited, .delivered(.failed): nil
            case .read(let head), .held(let head), .delivered(.head(let head)): head
            }
        }
    }

    /// Why the client's connection is suspended.
    enum ClientWait {
        case none
        /// Until the target has taken enough of the body.
        case forUpload
        /// Until the outcome is known.
        case forHead
        /// Until bytes of the answer, or its end, are ready.
        case forBody
    }

    let transfer: any UpstreamTransfer
    /// What the sender reports once the answer is queued (the access log, the journal).
    let decision: Decision
    let request: Request
    let connection: any RequestConnection
    unowned let lane: ForwardingLane
    var forwarder: Forwarder { lane.forwarder }
    private let isHead: Bool

    private var upload = Upload()
    var answer = Answer()
    var clientWait = ClientWait.none
    /// What every read gives from now on (the client left, the server stops).
    var ending: BodyRead?
    /// The connection's socket is watched for the client's hang-up.
    var watched = false
    /// When something last moved between the server and the target (`MonotonicClock.coarseNow()`).
    private var lastProgress = MonotonicClock.coarseNow()
    /// libcurl's head lines, read into a head.
    private var headReader = UpstreamHead.Reader()
    /// What is recorded of the exchange (with `record`); nil when nothing is.
    private let tap: RecordingTap?
    /// Why the target's answer, its head read, is not sent (the exchange then ends with it).
    private var refusal: TransferFailure?

    init(
        transfer: any UpstreamTransfer, decision: Decision, request: Request, connection: any RequestConnection,
        lane: ForwardingLane, tap: RecordingTap?
    ) {
        self.transfer = transfer
        self.decision = decision
        self.request = request
        self.connection = connection
        self.lane = lane
        self.tap = tap
        isHead = request.method == "HEAD"
    }

    deinit {
        upload.queue.removeAll()
        answer.body.removeAll()
    }

    // MARK: libmicrohttpd's side

    /// A piece of the client's body. Suspends the connection when the target lags `highWater` bytes behind.
    func push(_ bytes: UnsafeRawBufferPointer) {
        lane.loop.assertInEventLoop()
        tap?.tapRequest(bytes)
        guard upload.phase != .dropped else { return }
        upload.queue.append(bytes)
        // Suspended once: libmicrohttpd must not be asked twice (a second piece pushed in the same call).
        if upload.queue.count >= Self.highWater, clientWait != .forUpload {
            clientWait = .forUpload
            connection.suspend()
        }
        lastProgress = MonotonicClock.coarseNow()
        wakeUpload()
    }

    /// The client's body is complete (at once for a request without one). Once is enough; more are ignored.
    func endUpload() {
        guard upload.phase == .open else { return }
        upload.phase = .complete
        lastProgress = MonotonicClock.coarseNow()
        wakeUpload()
    }

    private func wakeUpload() {
        guard upload.transferWaits else { return }
        upload.transferWaits = false
        lane.unpause(self)
    }

    /// The outcome when it is known; else the connection is suspended until it is (nil). A connection
    /// already suspended while the target takes the body waits for that resume first, then asks again.
    func awaitOutcome() -> Outcome? {
        if case .delivered(let outcome) = answer.head { return outcome }
        if clientWait == .forUpload { return nil }
        clientWait = .forHead
        connection.suspend()
        return nil
    }

    /// libmicrohttpd has finished with the request (answered, or the client went away): a transfer still
    /// running is stopped.
    func requestEnded() {
        if upload.phase != .dropped { lane.cancel(self) }
    }

    // MARK: The upstream client's side

    /// Whether the target is overdue: it should be acting (taking the body, sending the head or the body)
    /// and nothing has moved for `timeout` seconds.
    func isOverdue(now: UInt64, timeout: UInt64) -> Bool {
        guard now > lastProgress + timeout else { return false }
        var waitsForClient = false
        if case .delivered = answer.head {} else { waitsForClient = upload.phase == .open && upload.queue.isEmpty }
        return !waitsForClient && !answer.receivingPaused
    }

    /// The target may act again after the client took bytes: time runs from now.
    func resumedByClient() {
        lastProgress = MonotonicClock.coarseNow()
    }

    func transferHeaderLine(_ line: UnsafeRawBufferPointer) {
        lastProgress = MonotonicClock.coarseNow()
        guard case .awaited = answer.head, refusal == nil else { return }
        if let complete = headReader.read(line) { return transferHead(complete) }
        if let malformed = headReader.malformed { refuse(because: malformed) }
    }

    func transferHead(_ complete: UpstreamHead) {
        lastProgress = MonotonicClock.coarseNow()
        // libmicrohttpd writes the answer's head into the connection's memory, beside the request's: a head
        // that does not fit would be no answer at all (the connection closed). It is a 502, and not recorded.
        let room = ConnectionMemory.bytes - connection.requestMemory - ConnectionMemory.answerHeadBytes
        if complete.headerBytes > room {
            return refuse(
                because:
                    "the target's answer has \(complete.headerBytes) bytes of headers, more than the \(max(room, 0)) a connection can send beside this request's (doc/limits.md)"
            )
        }
        let bodiless = isHead || complete.statusCode == 204 || complete.statusCode == 304 || complete.contentLength == 0
        tap?.answerStarts(bodiless: bodiless)
        // Spy mode: the next identical request finds the exchange in the tree; else while the writer is behind,
        // the client waits for its own exchange, which bounds what waits to be written.
        let holdsBack = tap != nil && (forwarder.recordingReloads || forwarder.recording?.isBehind == true)
        answer.size = isHead ? 0 : complete.contentLength
        answer.holdsBackEnd = holdsBack && !bodiless
        if holdsBack && bodiless {
            answer.head = .held(complete)
        } else {
            answer.head = .read(complete)
            lane.headRead(self)
        }
    }

    /// The target's answer is not sent, but a `502` saying `reason`, and nothing is recorded: the transfer ends.
    private func refuse(because reason: String) {
        refusal = TransferFailure(timedOut: false, reason: reason)
        lane.cancel(self)
    }

    func transferBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard refusal == nil else { return true }  // dropped: the transfer is being ended
        guard offer(bytes) else { return false }
        lastProgress = MonotonicClock.coarseNow()
        tap?.tapAnswer(bytes)
        return true
    }

    /// Hands a head read to the client, if one waits.
    func deliverHead() {
        guard case .read(let head) = answer.head else { return }
        deliver(.head(head))
    }

    func transferUpload(into buffer: UnsafeMutableRawBufferPointer) -> UploadStep {
        let count = upload.queue.read(into: buffer)
        if clientWait == .forUpload, upload.queue.count <= Self.lowWater {
            clientWait = .none
            connection.resume()
        }
        if count > 0 {
            lastProgress = MonotonicClock.coarseNow()
            return .bytes(count)
        }
        if upload.phase == .complete { return .end }
        upload.transferWaits = true
        return .wait
    }

    /// The transfer is over (out of the client): the target's answer is complete, or `failure` says why not.
    func transferEnded(_ failure: TransferFailure?) {
        transfer.release()
        upload.phase = .dropped
        upload.queue.removeAll()
        if clientWait == .forUpload {
            clientWait = .none
            connection.resume()
        }
        guard let head = answer.readHead else {
            stopRecording()
            deliver(
                .failed(
                    refusal ?? failure
                        ?? TransferFailure(
                            timedOut: false, reason: "the target closed the connection without an answer")))
            return
        }
        finishAnswer(broken: failure != nil)
        // The head goes once the answer is whole: a small one then goes to the client in one write.
        defer { deliverHead() }
        guard failure == nil, let tap else { return stopRecording() }
        // What the answer holds back waits for the recording; an answer that holds nothing back has ended.
        var then: @Sendable () -> Void = {}
        if answer.holdsBackEnd || isHeld { then = { [self] in lane.loop.execute { [self] in letAnswerEnd() } } }
        if !tap.submit(head: head, then: then) { stopRecording() }
    }

    private var isHeld: Bool {
        if case .held = answer.head { return true }
        return false
    }

    /// Nothing is recorded: the body file goes, and the answer is not held back.
    private func stopRecording() {
        guard let tap else { return }  // nothing was kept, nothing held back
        tap.discard()
        letAnswerEnd()
    }

    /// The answer ends as it came: its last byte, or its head when it has no body, goes to the client.
    private func letAnswerEnd() {
        answer.holdsBackEnd = false
        wake()
        if case .held(let head) = answer.head { deliver(.head(head)) }
    }

    /// Makes the outcome known, and resumes the client's connection if it waits for it.
    private func deliver(_ outcome: Outcome) {
        if case .delivered = answer.head { return }
        answer.head = .delivered(outcome)
        guard clientWait == .forHead else { return }
        clientWait = .none
        connection.resume()
    }

    // MARK: The answer's body, as libmicrohttpd reads it

    /// What is ready from `position` on; when nothing is, the connection is suspended until there is
    /// (`wake()`), and its socket watched for the client's hang-up meanwhile.
    override func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        if let ending { return ending }
        if let produced = produce(at: position, into: buffer) { return produced }
        if !watched {
            watched = true
            lane.loop.watchHangUp(of: connection.socket, for: self)
        }
        clientWait = .forBody
        connection.suspend()
        return .suspended
    }

    override func closed() {
        if watched { lane.loop.forgetHangUp(of: self) }
    }

    /// The client closed its connection while the answer waited for bytes: the answer is cut short.
    func clientLeft() {
        end(.broken)
    }
}
