import EspressoMartini
import Glibc
import Logging

/// Runs scripts on threads of its own, each with its own VM, so that a script never holds up the
/// libmicrohttpd thread that received its request: while scripts run (an endless one included, until
/// its timeout), static exchanges are answered at once. The threads start with the first script call;
/// a server whose tree has no script starts none and never loads the engine. A VM is made on its
/// thread's first call and made anew when a call comes from a reloaded tree (its scripts may have changed).
public final class ScriptRunner: ScriptEngine, @unchecked Sendable {
    private struct Queued {
        let job: ScriptJob
        let completion: @Sendable (GeneratedAnswer) -> Void
    }

    private struct Queue {
        var jobs: [Queued] = []
        var next = 0
        var sleeping = 0
        var started = false
        /// Set by `stop()`: calls not yet started are answered at once.
        var stopping = false
    }

    private let timeout: Double
    private let parser: any JSONParser
    private let logger: Logger
    private let threadCount: Int
    private let queue = Monitor(Queue())

    /// `threads` VMs at most (each about 10 MiB once warm); `timeout` in seconds per call.
    public init(timeout: Double, parser: any JSONParser, logger: Logger, threads: Int) {
        self.timeout = timeout
        self.parser = parser
        self.logger = logger
        threadCount = max(1, threads)
    }

    /// Runs the job's script and hands its answer to `completion`, on a script thread. Any thread.
    public func run(_ job: ScriptJob, completion: @escaping @Sendable (GeneratedAnswer) -> Void) {
        let (startThreads, wake) = queue.withLock { queue -> (Bool, Bool) in
            queue.jobs.append(Queued(job: job, completion: completion))
            defer { queue.started = true }
            return (!queue.started, queue.sleeping > 0)
        }
        if startThreads {
            for _ in 0..<threadCount { SystemThread.detached { [self] in work() } }
        } else if wake {
            queue.signal()
        }
    }

    /// Answers calls not yet started with a `503` from now on (shut-down: every suspended connection must
    /// resume before libmicrohttpd stops). Calls running finish within the timeout.
    public func stop() {
        queue.withLock { $0.stopping = true }
    }

    /// Whether `stop()` was called: a new call should then not be started.
    public var isStopping: Bool { queue.withLock { $0.stopping } }

    private func work() {
        var vm: ScriptVM?
        while true {
            let (queued, stopping) = take()
            let job = queued.job, tree = job.answer.tree
            if stopping {
                queued.completion(.error(503, "the server is stopping", globalHeaders: tree.globalHeaders))
                continue
            }
            if vm == nil || vm?.tree !== tree || vm?.stopped == true {
                vm = nil
                do {
                    vm = try ScriptVM(timeout: timeout, parser: parser)
                    vm?.tree = tree
                } catch {
                    queued.completion(ScriptAnswer.failure(error, script: job.script, globalHeaders: tree.globalHeaders))
                    continue
                }
            }
            queued.completion(answer(job, in: vm!))
        }
    }

    /// The request goes to the engine as JSON text (`ScriptRequest`) with its body beside it; the cache is
    /// the job's session's, held from the script's first use until the call returns; `Body.template` and
    /// template data render after the call, with the cache as the script left it.
    private func answer(_ job: ScriptJob, in vm: ScriptVM) -> GeneratedAnswer {
        let requestText = ScriptRequest.json(job.model, call: job.answer.call)
        let outcome = job.cache.withCall { cacheCall in
            ScriptCall(cache: cacheCall, parser: parser, logger: logger, route: job.script.route).run {
                vm.call(job.script, request: requestText, body: job.model.bodyText)
            }
        }
        let globalHeaders = job.answer.tree.globalHeaders
        switch outcome {
        case .answer(let text):
            return ScriptAnswer.make(fromAnswer: text, job: job, parser: parser) { problem in
                log(problem, of: job.script)
            }
        case .failure(let problem):
            log(problem, of: job.script)
            return ScriptAnswer.failure(problem, script: job.script, globalHeaders: globalHeaders)
        }
    }

    /// A failed call is answered `500` and logged as a warning with the script's place.
    private func log(_ problem: ScriptProblem, of script: ResponseScript) {
        let place = problem.line.map { " (\(script.file):\(script.fileLine($0)))" } ?? ""
        logger.warning("script \(script.route) failed: \(problem.message)\(place)")
    }

    /// The next job, sleeping until there is one.
    private func take() -> (Queued, stopping: Bool) {
        var job: Queued?
        var stopping = false
        var slept = false
        queue.wait { queue in
            if slept {
                queue.sleeping -= 1
                slept = false
            }
            if queue.next < queue.jobs.count {
                job = queue.jobs[queue.next]
                stopping = queue.stopping
                queue.next += 1
                if queue.next == queue.jobs.count {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.next = 0
                }
                return true
            }
            queue.sleeping += 1
            slept = true
            return false
        }
        return (job!, stopping)
    }
}
