@testable import EspressoMartiniServer
import EspressoMartini
import Foundation

/// A serving loop a test drives itself, on the thread that made it: what the server's code asks of its loop
/// (timers, hang-up watches, work handed over from other threads, a forwarding lane's turns) happens when the
/// test turns it, so the test decides when time passes for the code under test. Code that asserts it runs
/// on its loop's thread fails when a test calls it from another.
final class TestLoop: EventLoop, @unchecked Sendable {
    private let owner = pthread_self()
    private let poll = EventPoll()!
    private let timers = LoopTimers()
    private let hangUps: HangUpWatches
    private let handed = Locked<[@Sendable () -> Void]>([])
    var lane: ForwardingLane?

    init() {
        hangUps = HangUpWatches(poll: poll)
    }

    var inEventLoop: Bool { pthread_equal(owner, pthread_self()) != 0 }

    func execute(_ work: @escaping @Sendable () -> Void) {
        handed.withLock { $0.append(work) }
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

    /// Fake connections count their own resumptions.
    func connectionResumed() {}

    /// One turn, as a serving loop takes it: the work handed over, the lane's moves, a wait of up to
    /// `milliseconds` for a client's hang-up (less when a timer is due sooner), the timers that are due.
    func turn(milliseconds: Int = 1) {
        assertInEventLoop()
        for work in handed.withLock({ handed in
            defer { handed.removeAll() }; return handed
        }) { work() }
        var timeout = timers.milliseconds(atMost: milliseconds)
        if let lane { timeout = lane.beforeWait(milliseconds: timeout) }
        poll.wait(milliseconds: timeout, unless: { false }) { token, events in
            if HangUpWatches.owns(token) { hangUps.reported(token) } else { lane?.ready(token: token, events: events) }
        }
        timers.runDue()
        lane?.afterWait()
    }

    /// Turns the loop until `condition` holds, at most `timeout` seconds; whether it did.
    func turn(until condition: () -> Bool, timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            turn()
        }
        return true
    }
}
