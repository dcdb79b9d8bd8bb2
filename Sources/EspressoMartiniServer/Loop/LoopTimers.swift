import EspressoMartini

/// A loop's timers: actions run on the loop's thread once their time has come (a delay's end, a stream's
/// next chunk, a slowed body's next step). The loop waits no longer than the earliest one. Not locked: the
/// loop's thread only.
final class LoopTimers {
    private struct Entry {
        let deadline: UInt64
        let action: () -> Void
    }

    /// By deadline; equal deadlines in the order they were scheduled.
    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    /// Runs `action` once `seconds` (at most about 31 years) have passed.
    func schedule(after seconds: Double, _ action: @escaping () -> Void) {
        let deadline = MonotonicClock.now() &+ MonotonicClock.nanoseconds(seconds)
        // Most actions are due after those already scheduled: the search starts from the end.
        var index = entries.endIndex
        while index > entries.startIndex, entries[index - 1].deadline > deadline { index -= 1 }
        entries.insert(Entry(deadline: deadline, action: action), at: index)
    }

    /// Milliseconds until the earliest action is due (rounded up, 0 when one is), at most `limit`.
    func milliseconds(atMost limit: Int) -> Int {
        guard let first = entries.first else { return limit }
        let now = MonotonicClock.now()
        guard first.deadline > now else { return 0 }
        return min(limit, Int(clamping: (first.deadline - now + 999_999) / 1_000_000))
    }

    /// Runs every action that is due now; those they schedule wait for the next call.
    func runDue() {
        guard let first = entries.first, first.deadline <= MonotonicClock.now() else { return }
        let now = MonotonicClock.now()
        let count = entries.prefix { $0.deadline <= now }.count
        let due = entries[..<count].map(\.action)
        entries.removeFirst(count)
        for action in due { action() }
    }
}
