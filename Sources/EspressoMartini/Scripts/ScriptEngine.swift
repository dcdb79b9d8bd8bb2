/// Runs the scripts of responses computed per request (doc/scripts.md), off the threads that answer HTTP.
/// The core decides when a script answers (`Decision.script`); an engine (the scripting module's
/// JavaScriptCore one) runs it. Beside `ScriptChecker`, which compiles scripts when a tree loads.
public protocol ScriptEngine: Sendable {
    /// The job's answer computed on the calling thread (one that answers HTTP) when its script is quick; nil
    /// when the job must `run` on the engine's threads instead, having had no effect here.
    func answerOnThisThread(_ job: ScriptJob) -> GeneratedAnswer?

    /// Runs `job` on a thread of the engine's and hands its answer to `completion` there: a `500` with the
    /// reason when the script fails, a `503` when the engine stopped before the job started. Any thread.
    func run(_ job: ScriptJob, completion: @escaping @Sendable (GeneratedAnswer) -> Void)

    /// From now on, jobs not yet started are answered `503`; jobs running finish within the timeout.
    func stop()

    /// Whether `stop()` was called: no job should then be started.
    var isStopping: Bool { get }
}

extension ScriptEngine {
    public func answerOnThisThread(_ job: ScriptJob) -> GeneratedAnswer? { nil }
}
