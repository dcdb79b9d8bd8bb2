/// Runs short actions once their time has come, one after another on one thread of its own: started by
/// the first action scheduled, asleep with no timeout while nothing is scheduled (no libdispatch timer,
/// which would keep a worker pool awake for the rest of the process).
public final class DeadlineTimer: Sendable {
    private struct Entry {
        let deadline: UInt64
        let action: @Sendable () -> Void
    }

    private struct Schedule {
        /// By deadline; equal deadlines in the order they were scheduled.
        var entries: [Entry] = []
        var started = false
    }

    private let schedule = Monitor(Schedule())

    public init() {}

    /// `seconds` in nanoseconds, 0 for a negative number, at most about 31 years (a delay drawn from a long
    /// tail, or written huge, must not overflow the clock).
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(min(max(0, seconds), 1e9) * 1_000_000_000)
    }

    /// The timer's clock: a monotonic time in nanoseconds.
    public static func now() -> UInt64 {
        Monitor<Schedule>.now()
    }

    /// Runs `action` on the timer's thread once `seconds` have passed. Any thread. The action must not
    /// block: the next ones wait for it.
    public func schedule(after seconds: Double, _ action: @escaping @Sendable () -> Void) {
        let deadline = Monitor<Schedule>.now() + Self.nanoseconds(seconds)
        let start = schedule.withLock { schedule in
            let index = schedule.entries.lastIndex { $0.deadline <= deadline }.map { $0 + 1 } ?? 0
            schedule.entries.insert(Entry(deadline: deadline, action: action), at: index)
            defer { schedule.started = true }
            return !schedule.started
        }
        if start {
            SystemThread.detached { [self] in run() }
        } else {
            schedule.signal()
        }
    }

    private func run() {
        while true {
            var due: [Entry] = []
            schedule.wait(until: { schedule in
                let now = Monitor<Schedule>.now()
                let count = schedule.entries.prefix { $0.deadline <= now }.count
                guard count > 0 else { return false }
                due = Array(schedule.entries.prefix(count))
                schedule.entries.removeFirst(count)
                return true
            }, wakingAt: { $0.entries.first?.deadline })
            for entry in due { entry.action() }
        }
    }
}
