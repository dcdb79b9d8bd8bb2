import EspressoMartini
import Glibc
import Synchronization

/// One request forwarded to the proxy's target, on its connection's serving loop: libmicrohttpd's callbacks
/// (the client's body comes in with `push`, the answer goes out once `outcome` has it) and the HTTP client's
/// (the transfer's callbacks: the body goes to the target, the target's head and body come back) run on the
/// loop's thread; the recording writer's thread (in spy mode, the end of the answer waits for the recording)
/// and shut-down reach it from elsewhere.
///
/// Both directions stream in bounded memory: at most `highWater` bytes of the client's body wait for the
/// target (beyond, the client's connection is suspended until the target has taken them down to
/// `lowWater`), and `ForwardedAnswer` bounds the answer the same way.
final class ForwardedExchange: HTTPClientTransferReceiver, @unchecked Sendable {
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

    private struct Shared {
        var upload = ByteQueue()
        var uploadEnded = false
        /// The transfer has ended: the client's bytes go nowhere.
        var uploadDropped = false
        /// The transfer paused its upload for want of bytes.
        var transferWaitsForUpload = false
        /// The client's connection is suspended until the target has taken enough bytes.
        var suspendedForUpload = false
        var outcome: Outcome?
        /// The client's connection is suspended until the outcome is known.
        var waitsForOutcome = false
        /// A head whose answer has no body, kept from the client until the recording is written (spy mode).
        var heldHead: UpstreamHead?
        /// Non-nil while the request is to be recorded.
        var recorded: RecordedRequest?
    }

    let transfer: any UpstreamTransfer
    /// What the sender reports once the answer is queued (the access log, the journal).
    let decision: Decision
    let request: Request
    let answer: ForwardedAnswer
    private let connection: any RequestConnection
    private unowned let lane: ForwardingLane
    private var forwarder: Forwarder { lane.forwarder }
    private let shared: Locked<Shared>
    /// The transfer has ended.
    private let transferIsOver = Atomic<Bool>(false)
    /// When something last moved between the server and the target (`Monitor.coarseNow()`).
    private let lastProgress = Atomic<UInt64>(Monitor<Int>.coarseNow())
    private let isHead: Bool

    // In the HTTP client's callbacks only.
    private var headReader = UpstreamHead.Reader()
    private var head: UpstreamHead?
    /// A recorded body, in memory while it is at most `recordedInMemory` bytes, then in a file.
    private var recordedBody: [UInt8]?
    private var recordingFile: RecordingFile?
    static let recordedInMemory = 64 << 10
    /// A head read and not yet handed to the client: it goes once libcurl has read what it could, or the
    /// transfer has ended (`deliverHead`). The client then gets the head with the start of the body, or a
    /// small answer whole, in one write, as from the target: a head sent alone, then a small body, would wait
    /// out a delayed acknowledgement (Nagle's algorithm) on the client's connection.
    private var pendingHead: UpstreamHead?

    init(
        transfer: any UpstreamTransfer, decision: Decision, request: Request, connection: any RequestConnection, hangUps: HangUpWatcher?,
        lane: ForwardingLane, recording: RecordedRequest?
    ) {
        self.transfer = transfer
        self.decision = decision
        self.request = request
        self.connection = connection
        self.lane = lane
        shared = Locked(Shared(recorded: recording))
        isHead = request.method == "HEAD"
        answer = ForwardedAnswer(connection: connection, hangUps: hangUps)
    }

    /// The answer is to stream to the client (it was not all here when queued): a transfer paused for want of
    /// room receives again once the client has taken enough. Before the answer is queued. Only then, because a
    /// weak reference gives the exchange a side table, which every request would pay for.
    func streamsAnswer() {
        answer.onDrained = { [unowned lane, weak self] in
            if let self { lane.unpause(self) }
        }
    }

    // MARK: libmicrohttpd's side

    /// A piece of the client's body. Suspends the connection when the target lags `highWater` bytes behind.
    func push(_ bytes: UnsafeRawBufferPointer) {
        let wakeTransfer = shared.withLock { shared -> Bool in
            if shared.recorded != nil {
                shared.recorded!.bodySize += bytes.count
                let room = VariantConditions.bodyLimit - shared.recorded!.body.count
                if room > 0 { shared.recorded!.body.append(contentsOf: bytes.prefix(room)) }
            }
            guard !shared.uploadDropped else { return false }
            shared.upload.append(bytes)
            // Suspended once: libmicrohttpd must not be asked twice (a second piece pushed in the same call).
            if shared.upload.count >= Self.highWater, !shared.suspendedForUpload {
                shared.suspendedForUpload = true
                connection.suspend()
            }
            defer { shared.transferWaitsForUpload = false }
            return shared.transferWaitsForUpload
        }
        lastProgress.store(Monitor<Int>.coarseNow(), ordering: .relaxed)
        if wakeTransfer { lane.unpause(self) }
    }

    /// The client's body is complete (at once for a request without one). Once is enough; more are ignored.
    func endUpload() {
        let wakeTransfer = shared.withLock { shared -> Bool in
            guard !shared.uploadEnded else { return false }
            shared.uploadEnded = true
            defer { shared.transferWaitsForUpload = false }
            return shared.transferWaitsForUpload
        }
        lastProgress.store(Monitor<Int>.coarseNow(), ordering: .relaxed)
        if wakeTransfer { lane.unpause(self) }
    }

    /// The outcome when it is known; else the connection is suspended until it is (nil). A connection
    /// already suspended while the target takes the body waits for that resume first, then asks again.
    func awaitOutcome() -> Outcome? {
        shared.withLock { shared in
            if let outcome = shared.outcome { return outcome }
            if shared.suspendedForUpload { return nil }
            shared.waitsForOutcome = true
            connection.suspend()
            return nil
        }
    }

    /// libmicrohttpd has finished with the request (answered, or the client went away): a transfer still
    /// running is stopped.
    func clientGone() {
        if !transferIsOver.load(ordering: .acquiring) { lane.cancel(self) }
    }

    // MARK: The HTTP client's side

    /// Whether the target is overdue: it should be acting (taking the body, sending the head or the body)
    /// and nothing has moved for `timeout` seconds.
    func isOverdue(now: UInt64, timeout: UInt64) -> Bool {
        guard now > lastProgress.load(ordering: .relaxed) + timeout else { return false }
        let waitsForClient = shared.withLock { shared in
            shared.outcome == nil ? !shared.uploadEnded && shared.upload.isEmpty : false
        }
        return !waitsForClient && !answer.waitsForClient
    }

    /// The target may act again after the client took bytes: time runs from now.
    func resumedByClient() {
        lastProgress.store(Monitor<Int>.coarseNow(), ordering: .relaxed)
    }

    func transferHeaderLine(_ line: UnsafeRawBufferPointer) {
        lastProgress.store(Monitor<Int>.coarseNow(), ordering: .relaxed)
        guard head == nil, let complete = headReader.read(line) else { return }
        transferHead(complete)
    }

    func transferHead(_ complete: UpstreamHead) {
        lastProgress.store(Monitor<Int>.coarseNow(), ordering: .relaxed)
        head = complete
        let bodiless = isHead || complete.statusCode == 204 || complete.statusCode == 304 || complete.contentLength == 0
        let records = forwarder.recording != nil && shared.withLock { $0.recorded != nil }
        if records, !bodiless { recordedBody = [] }
        // Spy mode: the next identical request finds the exchange in the tree; else while the writer is behind,
        // the client waits for its own exchange, which bounds what waits to be written.
        let holdsBack = records && (forwarder.recordingReloads || forwarder.recording?.isBehind == true)
        answer.expect(size: isHead ? 0 : complete.contentLength, holdingBackEnd: holdsBack && !bodiless)
        if holdsBack && bodiless {
            shared.withLock { $0.heldHead = complete }
        } else {
            pendingHead = complete
            lane.headRead(self)
        }
    }

    func transferBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard answer.offer(bytes) else { return false }
        lastProgress.store(Monitor<Int>.coarseNow(), ordering: .relaxed)
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
            shared.withLock { $0.recorded = nil }
            recordedBody = nil
            return
        }
        recordedBody!.withUnsafeBytes { file.write($0) }
        file.write(bytes)
        recordingFile = file
        recordedBody = nil
    }

    /// Hands a head read to the client, if one waits. On the loop's thread.
    func deliverHead() {
        guard let head = pendingHead else { return }
        pendingHead = nil
        deliver(.head(head))
    }

    func transferUpload(into buffer: UnsafeMutableRawBufferPointer) -> UploadStep {
        var resumeClient = false
        let step = shared.withLock { shared -> UploadStep in
            let count = shared.upload.read(into: buffer)
            if shared.suspendedForUpload, shared.upload.count <= Self.lowWater {
                shared.suspendedForUpload = false
                resumeClient = true
            }
            if count > 0 { return .bytes(count) }
            if shared.uploadEnded { return .end }
            shared.transferWaitsForUpload = true
            return .wait
        }
        if case .bytes = step { lastProgress.store(Monitor<Int>.coarseNow(), ordering: .relaxed) }
        if resumeClient { connection.resume() }
        return step
    }

    /// The transfer is over (out of the multi): the target's answer is complete, or `failure` says why not.
    func transferEnded(_ failure: TransferFailure?) {
        transferIsOver.store(true, ordering: .releasing)
        transfer.release()
        let (resumeClient, recorded) = shared.withLock { shared -> (Bool, RecordedRequest?) in
            shared.uploadDropped = true
            shared.upload.removeAll()
            defer { shared.suspendedForUpload = false }
            return (shared.suspendedForUpload, shared.recorded)
        }
        if resumeClient { connection.resume() }
        guard head != nil else {
            stopRecording()
            deliver(.failed(failure ?? TransferFailure(timedOut: false, reason: "the target closed the connection without an answer")))
            return
        }
        answer.finish(broken: failure != nil)
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
        recording.submit(RecordingWriter.Job(exchange: exchange, encoding: encoding) { [self] in letAnswerEnd() })
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
        answer.release()
        if let held = shared.withLock({ shared in defer { shared.heldHead = nil }; return shared.heldHead }) {
            deliver(.head(held))
        }
    }

    /// Makes the outcome known, and resumes the client's connection if it waits for it.
    private func deliver(_ outcome: Outcome) {
        let wake = shared.withLock { shared -> Bool in
            guard shared.outcome == nil else { return false }
            shared.outcome = outcome
            defer { shared.waitsForOutcome = false }
            return shared.waitsForOutcome
        }
        if wake { connection.resume() }
    }
}
