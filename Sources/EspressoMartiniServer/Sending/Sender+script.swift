import EspressoMartini

extension Sender {
    /// Sends the answer the script engine computes at once on this thread when it can; else suspends the
    /// connection while the engine computes it on a thread of its own: the connection resumes with it in
    /// `state.suspended`, and libmicrohttpd then calls the access handler again, which sends it. Either way
    /// no faster than `pace` bytes a second when given. While the server stops, no script starts:
    /// `Decision.unavailable`.
    func run(
        _ job: ScriptJob, pacedAt pace: Double?, answering request: Request, state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        if scripts.isStopping {
            return send(.unavailable(job.answer), answering: request, state: state, on: connection)
        }
        if let computed = scripts.answerOnThisThread(job) {
            let rendered = Decision.rendered(job.answer, computed)
            return send(rendered, pacedAt: pace, answering: request, state: state, on: connection)
        }
        let suspended = SuspendedAnswer(.script(job), answering: request, on: connection)
        state.suspended = suspended
        runningScripts.add(1, ordering: .sequentiallyConsistent)
        connection.suspend()
        scripts.run(job) { [self] computed in
            let rendered = Decision.rendered(job.answer, computed)
            suspended.decision = pace.map { .throttled(bytesPerSecond: $0, rendered) } ?? rendered
            connection.resume()
            runningScripts.subtract(1, ordering: .sequentiallyConsistent)
        }
        return true
    }
}
