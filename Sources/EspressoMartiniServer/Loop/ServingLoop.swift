internal import CEpoll
import EspressoMartini
import Glibc
import Synchronization

/// One thread that drives a libmicrohttpd daemon of its own and, with a proxy, the connections to the
/// target of the requests that daemon's connections forward (`ForwardingLane`), in one epoll set. A forwarded
/// request is sent, its answer read and its client's connection resumed on the thread that owns that
/// connection: no thread is woken on the way, which is what a thread of its own for the target cost
/// (doc/architecture.md). A server with a proxy runs one loop per core; one without keeps libmicrohttpd's
/// own threads.
///
/// libmicrohttpd signals nothing when a connection of a daemon it runs no thread for is resumed, so a resume
/// from another thread (a delay's timer, a script, the recording writer) wakes the loop; one on the loop's own
/// thread only makes it run the daemon again before it waits.
final class ServingLoop: @unchecked Sendable {
    let poll: EventPoll
    /// With a proxy: what this loop forwards. Set before `start`.
    var lane: ForwardingLane?
    private var thread: SystemThread?
    /// The loop's thread, once it runs (`pthread_self()`), to tell its own calls from other threads'.
    private let owner = Atomic<UInt>(0)
    /// A connection was resumed from another thread: the daemon runs before the loop waits again.
    private let resumedElsewhere = Atomic<Bool>(false)
    /// A connection was resumed on the loop's thread (on that thread only).
    private var resumedHere = false
    /// Work for the loop's thread from others (`perform`), and whether there is any.
    private let commands = Locked(Commands())
    private let hasCommands = Atomic<Bool>(false)
    /// Set by `stop`, on the loop's thread: `run` returns.
    private var stopping = false
    /// What libmicrohttpd's epoll set is reported with in the loop's own.
    private static let daemonToken = EventPoll.wakeupToken - 1
    /// How long the loop sleeps at most when neither the daemon nor the lane has a time of its own.
    private static let longestWait = 3_600_000

    private struct Commands {
        var work: [@Sendable () -> Void] = []
        /// The thread has ended (or never started): work is done by whoever asks.
        var loopEnded = true
    }

    /// Nil when no epoll set can be made.
    init?() {
        guard let poll = EventPoll() else { return nil }
        self.poll = poll
    }

    /// Starts the thread driving `daemon`; false when its epoll set cannot be watched.
    func start(driving daemon: DrivenDaemon) -> Bool {
        guard poll.watch(daemon.epollDescriptor, for: UInt32(EPOLLIN.rawValue), token: Self.daemonToken) else { return false }
        commands.withLock { $0.loopEnded = false }
        thread = SystemThread { [self] in run(daemon) }
        return true
    }

    /// Whether the caller runs on the loop's thread.
    var isCurrentThread: Bool {
        owner.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// A connection of this loop's daemon was resumed (`HTTPConnection.resume()`). Any thread.
    func connectionResumed() {
        if isCurrentThread {
            resumedHere = true
        } else {
            resumedElsewhere.store(true, ordering: .sequentiallyConsistent)
            poll.wakeup()
        }
    }

    /// Runs `work` on the loop's thread, before it next waits; on the caller's when the loop has ended (then
    /// nothing runs beside it). Any thread.
    func perform(_ work: @escaping @Sendable () -> Void) {
        let queued = commands.withLock { commands -> Bool in
            guard !commands.loopEnded else { return false }
            commands.work.append(work)
            return true
        }
        guard queued else { return work() }
        hasCommands.store(true, ordering: .sequentiallyConsistent)
        poll.wakeup()
    }

    /// Runs `work` on the loop's thread (at once when called there, or when the loop has ended) and returns
    /// its result once it has run.
    func performAndWait<Result: Sendable>(_ work: @escaping @Sendable () -> Result) -> Result {
        if isCurrentThread { return work() }
        let done = Monitor<Result?>(nil)
        perform {
            let result = work()
            done.withLock { $0 = result }
            done.broadcast()
        }
        done.wait { $0 != nil }
        return done.withLock { $0! }
    }

    /// Ends the thread once its current turn is over, and waits for it. Not on the loop's thread.
    func stop() {
        performAndWait { [self] in stopping = true }
        thread?.join()
        thread = nil
    }

    private func run(_ daemon: DrivenDaemon) {
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        while true {
            runCommands()
            if stopping { break }
            var timeout = daemon.timeoutMilliseconds.map { min($0, Self.longestWait) } ?? Self.longestWait
            if let lane { timeout = lane.beforeWait(milliseconds: timeout) }
            if resumedHere || resumedElsewhere.exchange(false, ordering: .sequentiallyConsistent) { timeout = 0 }
            resumedHere = false
            poll.wait(milliseconds: timeout, unless: { [self] in
                resumedElsewhere.exchange(false, ordering: .sequentiallyConsistent) || hasCommands.load(ordering: .sequentiallyConsistent)
            }) { token, events in
                if token != Self.daemonToken { lane?.ready(token: token, events: events) }
            }
            lane?.afterWait()
            daemon.run()
        }
        // Work queued meanwhile runs now, and later work on the caller's thread.
        for work in commands.withLock({ commands in defer { commands.work.removeAll(); commands.loopEnded = true }; return commands.work }) { work() }
    }

    private func runCommands() {
        guard hasCommands.exchange(false, ordering: .sequentiallyConsistent) else { return }
        for work in commands.withLock({ commands in defer { commands.work.removeAll() }; return commands.work }) { work() }
    }
}
