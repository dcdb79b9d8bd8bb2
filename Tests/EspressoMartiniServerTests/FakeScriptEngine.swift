import EspressoMartini
import Foundation

/// A script engine that answers every job with the answer it was given, on a thread of its own, and
/// remembers the jobs: the sender's suspend/resume path without JavaScriptCore.
final class FakeScriptEngine: ScriptEngine, @unchecked Sendable {
    private let lock = NSLock()
    private let answer: GeneratedAnswer
    private var _jobs: [ScriptJob] = []
    private var stopping = false

    init(answering answer: GeneratedAnswer) {
        self.answer = answer
    }

    var jobs: [ScriptJob] { lock.withLock { _jobs } }

    func run(_ job: ScriptJob, completion: @escaping @Sendable (GeneratedAnswer) -> Void) {
        lock.withLock { _jobs.append(job) }
        let answer = answer
        Thread.detachNewThread { completion(answer) }
    }

    func stop() { lock.withLock { stopping = true } }

    var isStopping: Bool { lock.withLock { stopping } }
}
