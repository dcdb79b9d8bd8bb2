internal import CEpoll
import Dispatch
import EspressoMartini
import Glibc
import Synchronization

/// Takes the clients' connections from the listening socket, on a thread of its own, and gives each to the
/// daemon holding the fewest. libmicrohttpd's threads sharing one socket each take up to ten connections per
/// wake-up, so a crowd arriving at once could land on one thread while the other idled (forwarding ran up to
/// 15 % slower then); handed out here, connections spread evenly. With `limit` connections open, none more is
/// taken: the next wait in the system's queue until one closes.
final class ConnectionAcceptor: @unchecked Sendable {
    private let listener: Int32
    private let limit: Int
    /// Connections taken and not closed yet, over every daemon.
    private let open = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    /// Signalled when a close brings `open` below `limit`; the thread waits on it at the limit.
    private let room = DispatchSemaphore(value: 0)
    private var daemons: [HTTPDaemon] = []
    private var thread: SystemThread?

    /// Takes over `listener`, a bound and listening socket.
    init(listener: Int32, limit: Int) {
        self.listener = listener
        self.limit = limit
    }

    /// Starts taking connections for `daemons`.
    func start(handingTo daemons: [HTTPDaemon]) {
        self.daemons = daemons
        thread = SystemThread { [self] in run() }
    }

    /// A daemon closed one of its connections (on that daemon's thread).
    func connectionClosed() {
        if open.subtract(1, ordering: .sequentiallyConsistent).newValue == limit - 1 { room.signal() }
    }

    /// Stops taking connections and closes the listening socket: connections waiting in its queue are
    /// refused. Call once.
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        // Ends an accept under way (Linux wakes it with EINVAL) and a wait at the limit.
        shutdown(listener, Int32(SHUT_RDWR))
        room.signal()
        thread?.join()
        close(listener)
    }

    private func run() {
        var address = sockaddr_storage()
        while !stopping.load(ordering: .sequentiallyConsistent) {
            while open.load(ordering: .sequentiallyConsistent) >= limit {
                room.wait()
                if stopping.load(ordering: .sequentiallyConsistent) { return }
            }
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(listener, $0, &length, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
                }
            }
            guard socket >= 0 else {
                waitAfterFailedAccept(errno)
                continue
            }
            let daemon = daemons.min { $0.openConnections < $1.openConnections }!
            open.add(1, ordering: .sequentiallyConsistent)
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { daemon.add(socket, address: $0, length: length) }
            }
            if !added { open.subtract(1, ordering: .sequentiallyConsistent) }
        }
    }

    /// After a failed accept: at once when a client gave up before being taken or a signal came; otherwise
    /// (no descriptor or memory left) a pause, as the next attempt would fail the same way.
    private func waitAfterFailedAccept(_ code: Int32) {
        switch code {
        case EINTR, ECONNABORTED, EAGAIN: return
        default: if !stopping.load(ordering: .sequentiallyConsistent) { usleep(10_000) }
        }
    }
}
