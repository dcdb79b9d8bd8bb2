import Dispatch
import Glibc

/// SIGINT and SIGTERM stop the daemon; SIGHUP calls `onHangUp`. Blocked from the start (`block()`) and
/// installed before the daemon says it is ready, so that a signal sent as soon as it is ready is never
/// met by the default action (which for SIGHUP kills the process), nor lost.
final class StopSignals {
    private let stop = DispatchSemaphore(value: 0)
    /// Kept alive for real: an optimised build releases sources only assigned to `_`, and the
    /// signals are then ignored.
    private var sources: [DispatchSourceSignal] = []

    private static let numbers = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the signals in the calling thread; call it before any other thread starts, so that every
    /// thread inherits the mask. A signal then waits in the process's queue until libdispatch, which
    /// reads them through a signalfd, has set up its source. Unblocked, a signal that arrived before
    /// then was ignored, and one taken by another thread was lost: SIGTERM, once in a while, did nothing.
    static func block() {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    init(onHangUp: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let stop = self.stop
        sources = Self.numbers.map { (number: Int32) in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { if number == SIGHUP { onHangUp() } else { _ = stop.signal() } }
            source.resume()
            return source
        }
    }

    /// Blocks until SIGINT or SIGTERM.
    func wait() {
        stop.wait()
    }
}
