@testable import EspressoMartiniServer
import EspressoMartini
import Testing

@Suite struct LoopTimersTests {
    /// Actions run in deadline order, none before its time, on the loop's thread as it turns; waits at most 5 s.
    @Test func runsEachActionOnceItsTimeHasComeInDeadlineOrder() {
        let loop = TestLoop()
        var runs: [(label: String, at: UInt64)] = []
        let start = MonotonicClock.now()
        for (label, seconds) in [("c", 0.3), ("a", 0.05), ("b", 0.15), ("a2", 0.05)] {
            loop.schedule(after: seconds) { runs.append((label, MonotonicClock.now())) }
        }
        #expect(loop.turn(until: { runs.count == 4 }))
        #expect(runs.map(\.label) == ["a", "a2", "b", "c"])
        let least: [String: UInt64] = ["a": 50_000_000, "a2": 50_000_000, "b": 150_000_000, "c": 300_000_000]
        for run in runs { #expect(run.at - start >= least[run.label]!, "\(run.label) ran early") }
    }

    /// A wait drawn from a long tail (a lognormal delay without a cap) or written huge never overflows the
    /// clock: it is held to about 31 years, and scheduling it traps nothing.
    @Test func aHugeWaitIsHeldToThirtyYears() {
        #expect(MonotonicClock.nanoseconds(1e300) == 1_000_000_000_000_000_000)
        #expect(MonotonicClock.nanoseconds(.infinity) == 1_000_000_000_000_000_000)
        #expect(MonotonicClock.nanoseconds(-1) == 0)
        #expect(MonotonicClock.nanoseconds(0.25) == 250_000_000)
        let timers = LoopTimers()
        timers.schedule(after: ResponseDelay.lognormal(median: 1, sigma: 1000, max: nil).seconds) {}
        let huge = LoopTimers()
        huge.schedule(after: 1e300) {}
        #expect(huge.milliseconds(atMost: 1000) == 1000)
    }

    /// An action that schedules another leaves it for a later turn; the loop waits no longer than the
    /// earliest action.
    @Test func anActionMayScheduleAnother() {
        let timers = LoopTimers()
        var ran: [String] = []
        timers.schedule(after: 0) {
            ran.append("first")
            timers.schedule(after: 0) { ran.append("second") }
        }
        #expect(timers.milliseconds(atMost: 1000) == 0)
        timers.runDue()
        #expect(ran == ["first"])
        timers.runDue()
        #expect(ran == ["first", "second"])
        #expect(timers.isEmpty)
        #expect(timers.milliseconds(atMost: 1000) == 1000)
    }
}
