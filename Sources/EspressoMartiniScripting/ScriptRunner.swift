import EspressoMartini
import Glibc
import Logging

/// Runs scripts on threads of its own, each with its own VM, so that a script never holds up the
/// libmicrohttpd thread that received its request: while scripts run (an endless one included, until
/// its timeout), static exchanges are answered at once. The threads start with the first script call;
/// a server whose tree has no script starts none and never loads the engine. A VM is made on its
/// thread's first call and made anew when a call comes from a reloaded tree (its scripts may have changed).
public final class ScriptRunner: @unchecked Sendable {
    private struct Job {
        let script: ResponseScript
        let request: String
        let body: String?
        let tree: ServingTree
        let cache: PanRequestCache
        let completion: @Sendable (GeneratedAnswer) -> Void
    }

    private struct Queue {
        var jobs: [Job] = []
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

    /// Runs `script` for the request (`ScriptRequest.json`) and its body (text, nil without one), and hands
    /// its answer to `completion`, on a script thread. The cache is taken at the call site so that whoever
    /// serves can choose it. Any thread.
    public func run(
        _ script: ResponseScript, request: String, body: String?, tree: ServingTree, cache: PanRequestCache,
        completion: @escaping @Sendable (GeneratedAnswer) -> Void
    ) {
        let job = Job(script: script, request: request, body: body, tree: tree, cache: cache, completion: completion)
        let (startThreads, wake) = queue.withLock { queue -> (Bool, Bool) in
            queue.jobs.append(job)
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
            let (job, stopping) = take()
            let tree = job.tree
            if stopping {
                job.completion(.error(503, "the server is stopping", globalHeaders: tree.globalHeaders))
                continue
            }
            if vm == nil || vm?.tree !== tree || vm?.stopped == true {
                vm = nil
                do {
                    vm = try ScriptVM(timeout: timeout, parser: parser)
                    vm?.tree = tree
                } catch {
                    job.completion(ScriptAnswer.failure(error, script: job.script, globalHeaders: tree.globalHeaders))
                    continue
                }
            }
            job.completion(answer(job, in: vm!))
        }
    }

    private func answer(_ job: Job, in vm: ScriptVM) -> GeneratedAnswer {
        let call = ScriptCall(cache: job.cache, parser: parser, logger: logger, route: job.script.route)
        let outcome = call.run { vm.call(job.script, request: job.request, body: job.body) }
        switch outcome {
        case .answer(let text):
            return ScriptAnswer.make(fromAnswer: text, script: job.script, globalHeaders: job.tree.globalHeaders, parser: parser) { problem in
                log(problem, of: job.script)
            }
        case .failure(let problem):
            log(problem, of: job.script)
            return ScriptAnswer.failure(problem, script: job.script, globalHeaders: job.tree.globalHeaders)
        }
    }

    /// A failed call is answered `500` and logged as a warning with the script's place.
    private func log(_ problem: ScriptProblem, of script: ResponseScript) {
        let place = problem.line.map { " (\(script.file):\(script.fileLine($0)))" } ?? ""
        logger.warning("script \(script.route) failed: \(problem.message)\(place)")
    }

    /// The next job, sleeping until there is one.
    private func take() -> (Job, stopping: Bool) {
        var job: Job?
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
