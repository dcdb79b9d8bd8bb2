import EspressoMartini
import Glibc
import Logging

/// Runs scripts, each thread with its own VM (`ScriptVM`). A call runs first on the thread that received its
/// request, in that thread's VM, with a budget of one tick (`ScriptWatch.tick`, 10 ms of processor time):
/// no hand-off to another thread and back, for the short scripts mocks have. A call past the budget, or one
/// that would wait for the cache behind a call on a script thread, is stopped with no effect and runs again
/// on a script thread of its own, with the whole `script_timeout`; a script that ran past the budget twice on
/// a thread runs on script threads from then on. So an endless script holds up a thread that receives
/// requests for 10 ms twice, and never again. Script threads start with the first call that needs one; a server whose
/// tree has no script starts none and never loads the engine. A VM is made on its thread's first call, and
/// made anew for a reloaded tree (its scripts may have changed) or after a call stopped for its time or
/// its memory (whose pages then go back to the system at once).
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

    private let limits: ScriptLimits
    private let parser: any JSONParser
    private let logger: Logger
    private let threadCount: Int
    private let queue = Monitor(Queue())
    /// Each receiving thread's `VMSlot`, released when the thread ends.
    private let receivingSlots: pthread_key_t

    /// `threads` script threads at most (each VM a few MiB once warm).
    public init(limits: ScriptLimits, parser: any JSONParser, logger: Logger, threads: Int) {
        self.limits = limits
        self.parser = parser
        self.logger = logger
        threadCount = max(1, threads)
        var key = pthread_key_t()
        pthread_key_create(&key) { slot in
            slot.map { Unmanaged<VMSlot>.fromOpaque($0).release() }
        }
        receivingSlots = key
    }

    public func answerOnThisThread(_ job: ScriptJob) -> GeneratedAnswer? {
        let slot: VMSlot
        if let known = pthread_getspecific(receivingSlots) {
            slot = Unmanaged<VMSlot>.fromOpaque(known).takeUnretainedValue()
        } else {
            slot = VMSlot(limits: limits, parser: parser, logger: logger)
            pthread_setspecific(receivingSlots, Unmanaged.passRetained(slot).toOpaque())
        }
        let tree = job.answer.tree
        if slot.runsLong(job.script, of: tree) { return nil }
        let vm: ScriptVM
        do {
            vm = try slot.vm(for: tree)
        } catch {
            return failure(error, of: job)
        }
        let outcome = vm.call(job, onReceivingThread: true)
        if case .again(let ranLong) = outcome {
            if ranLong { slot.noteRanLong(job.script) }
            slot.settle()
            return nil
        }
        defer { slot.settle() }
        return answer(outcome, of: job, in: vm)
    }

    /// Runs the job's script on a script thread and hands its answer to `completion` there. Any thread.
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

    /// Answers calls not yet started on a script thread with a `503` from now on (shut-down: every
    /// suspended connection must resume before libmicrohttpd stops). Calls running finish within the timeout.
    public func stop() {
        queue.withLock { $0.stopping = true }
    }

    /// Whether `stop()` was called: a new call should then not be started.
    public var isStopping: Bool { queue.withLock { $0.stopping } }

    private func work() {
        let slot = VMSlot(limits: limits, parser: parser, logger: logger)
        while true {
            let (queued, stopping) = take()
            let job = queued.job
            if stopping {
                queued.completion(.error(503, "the server is stopping", globalHeaders: job.answer.tree.globalHeaders))
                continue
            }
            let answer: GeneratedAnswer
            do {
                let vm = try slot.vm(for: job.answer.tree)
                answer =
                    self.answer(vm.call(job, onReceivingThread: false), of: job, in: vm)
                    ?? failure(ScriptProblem(message: "the script could not run"), of: job)
            } catch {
                answer = failure(error, of: job)
            }
            queued.completion(answer)
            slot.settle()
        }
    }

    /// The bytes a call's outcome sends: `Body.template` and template data render now, after the call, with
    /// the cache as the script left it. Nil for a call to run again.
    private func answer(_ outcome: ScriptVM.Outcome, of job: ScriptJob, in vm: ScriptVM) -> GeneratedAnswer? {
        switch outcome {
        case .response(let response):
            return ScriptAnswer.make(from: response, job: job, parser: parser, yaml: vm.yaml) { problem in
                log(problem, of: job.script)
            }
        case .failure(let problem):
            return failure(problem, of: job)
        case .again:
            return nil
        }
    }

    /// A failed call is answered `500` and logged as a warning with the script's place.
    private func failure(_ problem: ScriptProblem, of job: ScriptJob) -> GeneratedAnswer {
        log(problem, of: job.script)
        return ScriptAnswer.failure(problem, script: job.script, globalHeaders: job.answer.tree.globalHeaders)
    }

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
