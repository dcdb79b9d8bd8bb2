import EspressoMartini
import Glibc
import Logging
import Synchronization

/// Writes recorded exchanges into the tree, one at a time, on a thread of its own (so that no serving loop
/// waits on the disk): decodes the body from its `Content-Encoding`, hands the exchange to the core's
/// `ExchangeRecorder`, and in spy mode reloads the tree, so that it answers the next identical request. Then it calls the job's `then`, which lets the
/// client's answer end.
///
/// Forwarding outpaces the disk (each new exchange is new folders and files): while `backlogLimit`
/// exchanges wait to be written, the writer `isBehind`, and an answer recorded meanwhile is held back
/// until its own exchange is written, so what waits in memory stays bounded under any load.
final class RecordingWriter: @unchecked Sendable {
    static let backlogLimit = 256

    /// Hidden inside the requests folder: the loader and the watcher ignore it, and a body written there is
    /// moved into the tree by a rename.
    static let scratchFolderName = ".espressomartini-recording"

    struct Job: Sendable {
        let exchange: RecordedExchange
        /// The body's `Content-Encoding` (nil for none): decoded before it is written.
        let encoding: String?
        let then: @Sendable () -> Void
    }

    /// What has been recorded since the start.
    struct Summary: Sendable {
        /// The method folders written into.
        var folders: Set<String> = []
        var responses = 0
        /// Answers forwarded but not written (the log says why of each).
        var notRecorded = 0
    }

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }

    let scratchFolder: String
    private let recorder: ExchangeRecorder
    /// Reloaded after each exchange written (spy mode); nil when the tree is not consulted (`record`).
    private let service: TreeService?
    private let logger: Logger
    private let queue = Monitor(Queue())
    private let written = Locked(Summary())
    /// Jobs submitted and not yet written.
    private let backlog = Atomic<Int>(0)
    private var thread: SystemThread?

    /// Makes the scratch folder; throws when it cannot be made.
    init(recorder: ExchangeRecorder, reloading service: TreeService?, logger: Logger) throws(TreeWritingError) {
        self.recorder = recorder
        self.service = service
        self.logger = logger
        scratchFolder = FileSystem.join(recorder.writer.requestsFolder, Self.scratchFolderName)
        guard mkdir(scratchFolder, 0o755) == 0 || errno == EEXIST, FileSystem.kind(of: scratchFolder) == .directory
        else {
            throw TreeWritingError(
                path: scratchFolder,
                message: "cannot be made for the bodies being recorded: \(String(cString: strerror(errno)))")
        }
        thread = SystemThread { [self] in run() }
    }

    /// `backlogLimit` exchanges or more wait to be written. Any thread.
    var isBehind: Bool { backlog.load(ordering: .relaxed) >= Self.backlogLimit }

    /// Queues `job`; any thread.
    func submit(_ job: Job) {
        backlog.add(1, ordering: .relaxed)
        queue.withLock { $0.jobs.append(job) }
        queue.signal()
    }

    /// Writes what is queued, stops the thread, removes the scratch folder when it is empty; returns what
    /// was recorded. Call once.
    func finish() -> Summary {
        queue.withLock { $0.stopping = true }
        queue.signal()
        thread?.join()
        thread = nil
        rmdir(scratchFolder)
        return summary
    }

    var summary: Summary { written.withLock { $0 } }

    private func run() {
        while true {
            // Every job queued so far, taken at once: the queue is never shifted one job at a time.
            var batch: [Job] = []
            queue.wait { queue in
                swap(&batch, &queue.jobs)
                return !batch.isEmpty || queue.stopping
            }
            guard !batch.isEmpty else { return }
            for job in batch {
                write(job)
                backlog.subtract(1, ordering: .relaxed)
                job.then()
            }
        }
    }

    private func write(_ job: Job) {
        var exchange = job.exchange
        let request = "\(exchange.method.name) \(exchange.path)"
        if let encoding = job.encoding {
            if let file = exchange.responseBodyFile, let decoded = ContentDecoding.decodeFile(file, encoding: encoding)
            {
                exchange.responseBodyFile = decoded
                exchange.contentDecoded = true
            } else if let bytes = exchange.responseBodyBytes,
                let decoded = ContentDecoding.decode(bytes, encoding: encoding)
            {
                exchange.responseBodyBytes = decoded
                exchange.contentDecoded = true
            } else {
                logger.notice(
                    "recording \(request): the body's Content-Encoding '\(encoding)' cannot be decoded; it is kept as received, with its header"
                )
            }
        }
        guard (200...599).contains(exchange.statusCode) else {
            if let file = exchange.responseBodyFile { unlink(file) }
            written.withLock { $0.notRecorded += 1 }
            logger.warning(
                "\(request) was not recorded: the target answered \(exchange.statusCode), and a tree's statuses are from 200 to 599"
            )
            return
        }
        do {
            switch try recorder.record(exchange) {
            case .added(let folder, let isNew, let responses):
                written.withLock {
                    $0.folders.insert(folder)
                    $0.responses += responses
                }
                logger.info(
                    "recorded \(request) \(exchange.statusCode) into \(folder)\(isNew ? " (new exchange)" : "")")
                if let service { service.reload(reason: "recorded \(request)") }
            case .unchanged(let folder):
                logger.info("\(request) answered as \(folder) already says; nothing new recorded")
            }
        } catch {
            written.withLock { $0.notRecorded += 1 }
            logger.warning("\(request) was not recorded: \(error)")
        }
    }
}
