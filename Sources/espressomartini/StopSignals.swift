import Dispatch
import Glibc

/// SIGINT and SIGTERM stop the daemon; SIGHUP calls `onHangUp`. Installed before the daemon says it
/// is ready, so that a signal sent as soon as it is ready is never met by the default action (which
/// for SIGHUP kills the process).
final class StopSignals {
    private let stop = DispatchSemaphore(value: 0)
    /// Kept alive for real: an optimised build releases sources only assigned to `_`, and the
    /// signals are then ignored.
    private var sources: [DispatchSourceSignal] = []

    init(onHangUp: @escaping @Sendable () -> Void) {
        signal(SIGPIPE, SIG_IGN)
        let stop = self.stop
        sources = [SIGINT, SIGTERM, SIGHUP].map { (number: Int32) in
            signal(number, SIG_IGN)
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
