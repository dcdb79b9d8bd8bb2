import EspressoMartini
import Testing

@Suite struct DeadlineTimerTests {
    /// Actions run in deadline order, none before its time; waits at most 5 s.
    @Test func runsEachActionOnceItsTimeHasComeInDeadlineOrder() {
        let timer = DeadlineTimer()
        let ran = Monitor<[(label: String, at: UInt64)]>([])
        let start = Monitor<Void>.now()
        for (label, seconds) in [("c", 0.3), ("a", 0.05), ("b", 0.15), ("a2", 0.05)] {
            timer.schedule(after: seconds) {
                ran.withLock { $0.append((label, Monitor<Void>.now())) }
                ran.signal()
            }
        }
        let limit = start + 5_000_000_000
        ran.wait(until: { $0.count == 4 || Monitor<Void>.now() >= limit }, wakingAt: { _ in limit })
        let runs = ran.withLock { $0 }
        #expect(runs.map(\.label) == ["a", "a2", "b", "c"])
        let least: [String: UInt64] = ["a": 50_000_000, "a2": 50_000_000, "b": 150_000_000, "c": 300_000_000]
        for run in runs { #expect(run.at - start >= least[run.label]!, "\(run.label) ran early") }
    }

    /// A wait drawn from a long tail (a lognormal delay without a cap) or written huge never overflows the
    /// clock: it is held to about 31 years, and scheduling it traps nothing.
    @Test func aHugeWaitIsHeldToThirtyYears() {
        #expect(DeadlineTimer.nanoseconds(1e300) == 1_000_000_000_000_000_000)
        #expect(DeadlineTimer.nanoseconds(.infinity) == 1_000_000_000_000_000_000)
        #expect(DeadlineTimer.nanoseconds(-1) == 0)
        #expect(DeadlineTimer.nanoseconds(0.25) == 250_000_000)
        DeadlineTimer().schedule(after: ResponseDelay.lognormal(median: 1, sigma: 1000, max: nil).seconds) {}
    }
}
