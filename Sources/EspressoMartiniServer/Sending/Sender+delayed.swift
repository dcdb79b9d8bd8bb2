import EspressoMartini
import Glibc

extension Sender {
    /// Suspends the connection for `seconds`, then carries out `then`: a timer of the connection's loop
    /// resumes it and libmicrohttpd calls the access handler again, which sends what `state.suspended` holds.
    /// No thread waits.
    func wait(
        _ seconds: Double, then: Decision, answering request: Request, state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        let suspended = SuspendedAnswer(then, answering: request, on: connection)
        state.suspended = suspended
        delayed.withLock { $0[ObjectIdentifier(suspended)] = suspended }
        connection.suspend()
        connection.loop.schedule(after: seconds) { [self] in resume(suspended) }
        return true
    }

    /// Ends a request's delay: exactly once, whoever (the timer or shut-down) comes first. Any thread.
    func resume(_ suspended: SuspendedAnswer) {
        guard !suspended.resumed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        delayed.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(suspended)) }
        suspended.connection.resume()
    }

    /// Ends every delay and every body still arriving now (shut-down: libmicrohttpd must not stop with
    /// suspended connections); waits, up to `scriptLimit`, for the running script calls to end (the engine,
    /// stopped, starts no more).
    func resumeAll(scriptLimit: Double) {
        endArrivingBodies(endlessOnly: false)
        scripts.stop()
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(scriptLimit)
        while runningScripts.load(ordering: .sequentiallyConsistent) > 0, MonotonicClock.now() < deadline {
            usleep(1000)
        }
        for suspended in delayed.withLock({ Array($0.values) }) { resume(suspended) }
    }
}
