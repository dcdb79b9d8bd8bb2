import EspressoMartini
import Glibc

/// One request forwarded to the proxy's target, on its connection's serving loop. libmicrohttpd's callbacks
/// (the client's body comes in with `push`, the answer goes out once `awaitOutcome` has it, its body read as
/// this object is the answer's `BodySource`) and the HTTP client's (the transfer's callbacks: the body goes
/// to the target, the target's head and body come back) all run on the loop's thread, so nothing here is
/// locked, and so does the loop's word that the client left while the answer waited for bytes. What comes
/// from elsewhere is handed to the loop: the recording writer's word that the recording is written (in spy
/// mode the end of the answer waits for it).
///
/// Both directions stream in bounded memory: at most `highWater` bytes of the client's body wait for the
/// target (beyond, the client's connection is suspended until the target has taken them down to
/// `lowWater`), and at most `highWater` bytes of the answer wait for the client (beyond, the transfer stops
/// receiving until the client has taken them down to `lowWater`), so an answer of any size passes.
final class ForwardedExchange: BodySource, RequestBodySink, UpstreamTransferReceiver, HangUpListener, @unchecked Sendable {
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    /// How the target answered, as far as the client's answer goes.
    enum Outcome {
        case head(UpstreamHead)
        case failed(TransferFailure)
    }

    /// What is recorded of the request (with `record`), kept as it passes.
    struct RecordedRequest {
        let method: HTTPMethod
        let path: String
        let rawQuery: String
        let headers: [HTTPHeader]
        let hasBody: Bool
        var body: [UInt8] = []
        var bodySize = 0
    }

    let transfer: any UpstreamTransfer
    /// What the sender reports once the answer is queued (the access log, the journal).
    let decision: Decision
    let request: Request
    let connection: any RequestConnection
    unowned let lane: ForwardingLane
    var forwarder: Forwarder { lane.forwarder }
    private let isHead: Bool

    // The client's body on its way to the target.
    private var upload = ByteQueue()
    private var uploadEnded = false
    /// The transfer has ended: the client's bytes go nowhere.
    private var uploadDropped = false
    /// The transfer paused its upload for want of bytes.
    private var transferWaitsForUpload = false
    /// The client's connection is suspended until the target has taken enough bytes.
    private var suspendedForUpload = false

    // The target's answer.
    private var outcome: Outcome?
    /// The client's connection is suspended until the outcome is known.
    private var waitsForOutcome = false
    /// A head whose answer has no body, kept from the client until the recording is written (spy mode).
    private var heldHead: UpstreamHead?
    /// The transfer has ended.
    private var transferIsOver = false
    /// When something last moved between the server and the target (`Monitor.coarseNow()`).
    private var lastProgress = MonotonicClock.coarseNow()
    /// libcurl's head lines, read into a head.
    private var headReader = UpstreamHead.Reader()
    private var head: UpstreamHead?
    /// A head read and not yet handed to the client: it goes once the client has read what it could, or the
    /// transfer has ended (`deliverHead`). The client then gets the head with the start of the body, or a
    /// small answer whole, in one write, as from the target: a head sent alone, then a small body, would wait
    /// out a delayed acknowledgement (Nagle's algorithm) on the client's connection.
    private var pendingHead: UpstreamHead?

    // The answer's body on its way to the client (`ForwardedExchange+answer.swift`).
    var answer = ByteQueue()
    var answerEnded = false
    var answerBroken = false
    /// While it is recorded in spy mode, the body's end (its last byte when its length is known, else its end)
    /// waits for the recording to be written and the tree reloaded: the client's next request is then answered
    /// by the tree.
    var holdsBackEnd = false
    var answerSize: UInt64?
    /// The transfer stopped receiving for want of room.
    var receivingPaused = false
    /// A read found nothing and suspended the connection: the next bytes resume it.
    var parked = false
    /// What every read gives from now on (the client left, the server stops).
    var ending: BodyRead?
    /// The connection's socket is watched for the client's hang-up.
    var watched = false

    // What is recorded (with `record`).
    private var recorded: RecordedRequest?
    /// A recorded body, in memory while it is at most `recordedInMemory` bytes, then in a file.
    private var recordedBody: [UInt8]?
    private var recordingFile: RecordingFile?
    static let recordedInMemory = 64 << 10

    init(
        transfer: any UpstreamTransfer, decision: Decision, request: Request, connection: any RequestConnection,
        lane: ForwardingLane, recording: RecordedRequest?
    ) {
        self.transfer = transfer
        self.decision = decision
        self.request = request
        self.connection = connection
        self.lane = lane
        recorded = recording
        isHead = request.method == "HEAD"
    }

    deinit {
        upload.removeAll()
        answer.removeAll()
    }

    // MARK: libmicrohttpd's side

    /// A piece of the client's body. Suspends the connection when the target lags `highWater` bytes behind.
    func push(_ bytes: UnsafeRawBufferPointer) {
        if recorded != nil {
            recorded!.bodySize += bytes.count
            let room = VariantConditions.bodyLimit - recorded!.body.count
            if room > 0 { recorded!.body.append(contentsOf: bytes.prefix(room)) }
        }
        guard !uploadDropped else { return }
        upload.append(bytes)
        // Suspended once: libmicrohttpd must not be asked twice (a second piece pushed in the same call).
        if upload.count >= Self.highWater, !suspendedForUpload {
            suspendedForUpload = true
            connection.suspend()
        }
        lastProgress = MonotonicClock.coarseNow()
        wakeUpload()
    }

    /// The client's body is complete (at once for a request without one). Once is enough; more are ignored.
    func endUpload() {
        guard !uploadEnded else { return }
        uploadEnded = true
        lastProgress = MonotonicClock.coarseNow()
        wakeUpload()
    }

    private func wakeUpload() {
        guard transferWaitsForUpload else { return }
        transferWaitsForUpload = false
        lane.unpause(self)
    }

    /// The outcome when it is known; else the connection is suspended until it is (nil). A connection
    /// already suspended while the target takes the body waits for that resume first, then asks again.
    func awaitOutcome() -> Outcome? {
        if let outcome { return outcome }
        if suspendedForUpload { return nil }
        waitsForOutcome = true
        connection.suspend()
        return nil
    }

    /// libmicrohttpd has finished with the request (answered, or the client went away): a transfer still
    /// running is stopped.
    func requestEnded() {
        if !transferIsOver { lane.cancel(self) }
    }

    // MARK: The HTTP client's side

    /// Whether the target is overdue: it should be acting (taking the body, sending the head or the body)
    /// and nothing has moved for `timeout` seconds.
    func isOverdue(now: UInt64, timeout: UInt64) -> Bool {
        guard now > lastProgress + timeout else { return false }
        let waitsForClient = outcome == nil ? !uploadEnded && upload.isEmpty : false
        return !waitsForClient && !receivingPaused
    }

    /// The target may act again after the client took bytes: time runs from now.
    func resumedByClient() {
        lastProgress = MonotonicClock.coarseNow()
    }

    func transferHeaderLine(_ line: UnsafeRawBufferPointer) {
        lastProgress = MonotonicClock.coarseNow()
        guard head == nil, let complete = headReader.read(line) else { return }
        transferHead(complete)
    }

    func transferHead(_ complete: UpstreamHead) {
        lastProgress = MonotonicClock.coarseNow()
        head = complete
        let bodiless = isHead || complete.statusCode == 204 || complete.statusCode == 304 || complete.contentLength == 0
        let records = recorded != nil && forwarder.recording != nil
        if records, !bodiless { recordedBody = [] }
        // Spy mode: the next identical request finds the exchange in the tree; else while the writer is behind,
        // the client waits for its own exchange, which bounds what waits to be written.
        let holdsBack = records && (forwarder.recordingReloads || forwarder.recording?.isBehind == true)
        answerSize = isHead ? 0 : complete.contentLength
        holdsBackEnd = holdsBack && !bodiless
        if holdsBack && bodiless {
            heldHead = complete
        } else {
            pendingHead = complete
            lane.headRead(self)
        }
    }

    func transferBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard offer(bytes) else { return false }
        lastProgress = MonotonicClock.coarseNow()
        if recordedBody != nil {
            keepRecorded(bytes)
        } else {
            recordingFile?.write(bytes)
        }
        return true
    }

    /// Keeps a piece of a recorded body in memory while the body is small, else moves it to a file.
    private func keepRecorded(_ bytes: UnsafeRawBufferPointer) {
        guard recordedBody!.count + bytes.count > Self.recordedInMemory else {
            recordedBody!.append(contentsOf: bytes)
            return
        }
        guard let scratch = forwarder.recording?.scratchFolder, let file = RecordingFile(folder: scratch) else {
            // Nothing is recorded; the answer's end is let go when the transfer ends.
            recorded = nil
            recordedBody = nil
            return
        }
        recordedBody!.withUnsafeBytes { file.write($0) }
        file.write(bytes)
        recordingFile = file
        recordedBody = nil
    }

    /// Hands a head read to the client, if one waits.
    func deliverHead() {
        guard let head = pendingHead else { return }
        pendingHead = nil
        deliver(.head(head))
    }

    func transferUpload(into buffer: UnsafeMutableRawBufferPointer) -> UploadStep {
        let count = upload.read(into: buffer)
        if suspendedForUpload, upload.count <= Self.lowWater {
            suspendedForUpload = false
            connection.resume()
        }
        if count > 0 {
            lastProgress = MonotonicClock.coarseNow()
            return .bytes(count)
        }
        if uploadEnded { return .end }
        transferWaitsForUpload = true
        return .wait
    }

    /// The transfer is over (out of the client): the target's answer is complete, or `failure` says why not.
    func transferEnded(_ failure: TransferFailure?) {
        transferIsOver = true
        transfer.release()
        uploadDropped = true
        upload.removeAll()
        if suspendedForUpload {
            suspendedForUpload = false
            connection.resume()
        }
        guard head != nil else {
            stopRecording()
            deliver(.failed(failure ?? TransferFailure(timedOut: false, reason: "the target closed the connection without an answer")))
            return
        }
        finishAnswer(broken: failure != nil)
        // The head goes once the answer is whole: a small one then goes to the client in one write.
        defer { deliverHead() }
        guard failure == nil, let head, let recording = forwarder.recording, let recorded else {
            stopRecording()
            return
        }
        var bodyFile: String?
        let bodyBytes = recordedBody.flatMap { $0.isEmpty ? nil : $0 }
        recordedBody = nil
        if let file = recordingFile {
            guard file.close() else {
                stopRecording()
                return
            }
            if file.size > 0 { bodyFile = file.path } else { unlink(file.path) }
            recordingFile = nil
        }
        let exchange = RecordedExchange(
            method: recorded.method, path: recorded.path, rawQuery: recorded.rawQuery, requestHeaders: recorded.headers,
            requestBody: recorded.hasBody ? recorded.body : nil, requestBodySize: recorded.bodySize, statusCode: head.statusCode,
            responseHeaders: head.headers, responseBodyFile: bodyFile, responseBodyBytes: bodyBytes, contentDecoded: false
        )
        let encoding = bodyFile == nil && bodyBytes == nil ? nil : head.contentEncoding
        // What the answer holds back waits for the recording; an answer that holds nothing back has ended.
        var then: @Sendable () -> Void = {}
        if holdsBackEnd || heldHead != nil {
            then = { [self] in lane.loop.execute { [self] in letAnswerEnd() } }
        }
        recording.submit(RecordingWriter.Job(exchange: exchange, encoding: encoding, then: then))
    }

    /// Nothing is recorded: the body file goes, and the answer is not held back.
    private func stopRecording() {
        guard forwarder.recording != nil else { return }  // nothing was kept, nothing held back
        recordingFile?.discard()
        recordingFile = nil
        recordedBody = nil
        letAnswerEnd()
    }

    /// The answer ends as it came: its last byte, or its head when it has no body, goes to the client.
    private func letAnswerEnd() {
        holdsBackEnd = false
        wake()
        if let held = heldHead {
            heldHead = nil
            deliver(.head(held))
        }
    }

    /// Makes the outcome known, and resumes the client's connection if it waits for it.
    private func deliver(_ outcome: Outcome) {
        guard self.outcome == nil else { return }
        self.outcome = outcome
        guard waitsForOutcome else { return }
        waitsForOutcome = false
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
        parked = true
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
