import EspressoMartini
import Glibc
import Synchronization

/// One thread that drives a libmicrohttpd daemon of its own (without threads of libmicrohttpd's, on a
/// descriptor of the shared listening socket) and everything else its connections need: their timers
/// (delays, a stream's chunks, a slowed body's steps), the clients it watches for leaving, and with a proxy
/// the connections to the target (`ForwardingLane`). A server runs one loop per core. A request is received,
/// decided and answered on the thread that owns its connection; a forwarded one is sent, its answer read and
/// its connection resumed there too, with no thread woken on the way.
///
/// While nothing of its own is watched, the loop waits in libmicrohttpd's own epoll set, as libmicrohttpd's
/// own threads do (one system call a turn); otherwise it waits in its own set, which holds libmicrohttpd's,
/// and runs libmicrohttpd after each wait. libmicrohttpd signals nothing when a connection of a daemon it runs
/// no thread for is resumed, so a resume from another thread (a script, the recording writer, shut-down)
/// wakes the loop; one on the loop's own thread only makes it run the daemon again before it waits.
final class ServingLoop: EventLoop, @unchecked Sendable {
    let poll: EventPoll
    /// With a proxy: what this loop forwards. Set before `start`.
    var lane: ForwardingLane?
    private var thread: SystemThread?
    /// The loop's thread while it runs (`pthread_self()`), to tell its own calls from other threads'.
    private let owner = Atomic<UInt>(0)
    /// The thread runs: before and after, whoever calls counts as the loop's thread.
    private let running = Atomic<Bool>(false)
    /// A connection was resumed from another thread: the daemon runs before the loop waits again.
    private let resumedElsewhere = Atomic<Bool>(false)
    /// A connection was resumed on the loop's thread (on that thread only).
    private var resumedHere = false
    /// Work for the loop's thread from others (`execute`), and whether there is any.
    private let commands = Locked(Commands())
    private let hasCommands = Atomic<Bool>(false)
    /// Set by `stop`, on the loop's thread: `run` returns.
    private var stopping = false
    // On the loop's thread only.
    private let timers = LoopTimers()
    private let hangUps: HangUpWatches
    /// How long the loop sleeps at most when nothing has a time of its own.
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
        hangUps = HangUpWatches(poll: poll)
    }

    /// Starts the thread driving `daemon`; false when its epoll set cannot be watched.
    func start(driving daemon: DrivenDaemon) -> Bool {
        guard poll.watch(daemon.epollDescriptor, for: EventPoll.readable, token: EventToken.daemon),
            poll.alsoWakeWaitersOf(daemon.epollDescriptor)
        else { return false }
        commands.withLock { $0.loopEnded = false }
        thread = SystemThread { [self] in run(daemon) }
        return true
    }

    var inEventLoop: Bool {
        guard running.load(ordering: .acquiring) else { return true }
        return owner.load(ordering: .relaxed) == UInt(pthread_self())
    }

    func connectionResumed() {
        if owner.load(ordering: .relaxed) == UInt(pthread_self()) {
            resumedHere = true
        } else {
            resumedElsewhere.store(true, ordering: .sequentiallyConsistent)
            poll.wakeup()
        }
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        let queued = commands.withLock { commands -> Bool in
            guard !commands.loopEnded else { return false }
            commands.work.append(work)
            return true
        }
        guard queued else { return work() }
        hasCommands.store(true, ordering: .sequentiallyConsistent)
        poll.wakeup()
    }

    func schedule(after seconds: Double, _ action: @escaping () -> Void) {
        assertInEventLoop()
        timers.schedule(after: seconds, action)
    }

    func watchHangUp(of socket: Int32, for listener: any HangUpListener) {
        assertInEventLoop()
        hangUps.watch(socket, for: listener)
    }

    func forgetHangUp(of listener: any HangUpListener) {
        guard inEventLoop else { return execute { [self] in forgetHangUp(of: listener) } }
        hangUps.forget(listener)
    }

    /// Ends the thread once its current turn is over, and waits for it. Not on the loop's thread.
    func stop() {
        performAndWait { [self] in stopping = true }
        thread?.join()
        thread = nil
    }

    private func run(_ daemon: DrivenDaemon) {
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        running.store(true, ordering: .releasing)
        let pending = { [self] in
            resumedElsewhere.exchange(false, ordering: .sequentiallyConsistent)
                || hasCommands.load(ordering: .sequentiallyConsistent)
        }
        while true {
            runCommands()
            if stopping { break }
            var timeout = timers.milliseconds(atMost: Self.longestWait)
            if let lane { timeout = lane.beforeWait(milliseconds: timeout) }
            if resumedHere || resumedElsewhere.exchange(false, ordering: .sequentiallyConsistent) { timeout = 0 }
            resumedHere = false
            if lane == nil, hangUps.isEmpty {
                poll.wait(milliseconds: timeout, unless: pending) { daemon.run(waitingUpTo: $0) }
                timers.runDue()
            } else {
                if let due = daemon.timeoutMilliseconds { timeout = min(timeout, due) }
                poll.wait(milliseconds: timeout, unless: pending) { token, events in
                    switch token & EventToken.ownerMask {
                    case EventToken.daemon: break
                    case EventToken.hangUp: hangUps.reported(token)
                    default: lane?.ready(token: token, events: events)
                    }
                }
                timers.runDue()
                lane?.afterWait()
                daemon.run()
            }
        }
        // Work queued meanwhile runs now, and later work on the caller's thread.
        running.store(false, ordering: .releasing)
        owner.store(0, ordering: .relaxed)
        for work in commands.withLock({ commands in
            defer { commands.work.removeAll(); commands.loopEnded = true }; return commands.work
        }) { work() }
    }

    private func runCommands() {
        guard hasCommands.exchange(false, ordering: .sequentiallyConsistent) else { return }
        for work in commands.withLock({ commands in
            defer { commands.work.removeAll() }; return commands.work
        }) { work() }
    }
}
