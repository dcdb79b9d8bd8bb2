import EspressoMartini
import Glibc

/// SIGINT and SIGTERM stop the daemon; SIGHUP calls `onHangUp`. Blocked from the start (`block()`) and
/// taken with `sigwait` by the thread in `wait()`, so that a signal sent as soon as the daemon is ready
/// is never met by the default action (which for SIGHUP kills the process), nor lost: until that
/// thread takes it, it waits in the process's queue. Nothing wakes while no signal comes.
final class StopSignals {
    private let onHangUp: @Sendable () -> Void

    private static let numbers = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the signals in the calling thread; call it before any other thread starts, so that every
    /// thread inherits the mask and none takes a signal meant for `wait()`.
    static func block() {
        var set = signalSet
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    private static var signalSet: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        return set
    }

    init(onHangUp: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        self.onHangUp = onHangUp
    }

    /// Blocks until SIGINT or SIGTERM. Each SIGHUP meanwhile runs `onHangUp` on a thread of its own,
    /// so that a stop signal is taken even while it runs.
    func wait() {
        var set = Self.signalSet
        while true {
            var number: Int32 = 0
            guard sigwait(&set, &number) == 0 else { continue }
            if number != SIGHUP { return }
            SystemThread.detached(onHangUp)
        }
    }
}
