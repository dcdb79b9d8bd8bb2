import EspressoMartini
internal import CEpoll
import Glibc

/// Notices clients that close their connection while their answer waits for bytes (a stream between
/// chunks, a throttled body, an answer still arriving from elsewhere). libmicrohttpd does not watch the
/// socket of a suspended connection, so without this a client that left would keep its connection and
/// descriptor until the next bytes were due, which for a quiet stream may be never. One thread with an
/// epoll set of its own, both made with the first watch.
///
/// A socket is watched for the peer's close (`EPOLLRDHUP`, and the hang-ups and errors epoll always
/// reports), once (`EPOLLONESHOT`), and never removed by number: it leaves the set when libmicrohttpd
/// closes it, so a number reused by a later connection is never touched by mistake. Each watch has a
/// token of its own, so a late report for a body already gone reaches no other.
final class HangUpWatcher: @unchecked Sendable {
    private struct Watches {
        var poll: Int32 = -1
        var nextToken: UInt64 = 1
        var bodies: [UInt64: any HangUpListener] = [:]
        var tokens: [ObjectIdentifier: UInt64] = [:]
    }

    private let watches = Locked(Watches())

    init() {}

    /// Tells `body` (`clientLeft()`) once the client on `socket` closes its connection. On the connection's
    /// thread, while libmicrohttpd keeps the socket open; a socket of -1 is not watched.
    func watch(_ socket: Int32, for body: any HangUpListener) {
        guard socket >= 0 else { return }
        let (poll, token, started) = watches.withLock { watches -> (Int32, UInt64, Bool) in
            var started = false
            if watches.poll < 0 {
                watches.poll = epoll_create1(Int32(EPOLL_CLOEXEC))
                started = watches.poll >= 0
            }
            let token = watches.nextToken
            watches.nextToken += 1
            watches.bodies[token] = body
            watches.tokens[ObjectIdentifier(body)] = token
            return (watches.poll, token, started)
        }
        guard poll >= 0 else { return }
        if started { SystemThread.detached { [self] in run(poll) } }
        var event = epoll_event()
        event.events = EPOLLRDHUP.rawValue | EPOLLONESHOT.rawValue
        event.data.u64 = token
        // A connection kept alive may have been watched for an earlier answer: its entry is re-armed.
        if epoll_ctl(poll, EPOLL_CTL_ADD, socket, &event) != 0, errno == EEXIST {
            _ = epoll_ctl(poll, EPOLL_CTL_MOD, socket, &event)
        }
    }

    /// `body` is done: a later report about its socket reaches nothing. Any thread.
    func forget(_ body: any HangUpListener) {
        watches.withLock { watches in
            guard let token = watches.tokens.removeValue(forKey: ObjectIdentifier(body)) else { return }
            watches.bodies[token] = nil
        }
    }

    private func run(_ poll: Int32) {
        let capacity = 64
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: capacity)
        defer { events.deallocate() }
        while true {
            let count = epoll_wait(poll, events, Int32(capacity), -1)
            guard count > 0 else { continue }  // interrupted
            let left = watches.withLock { watches in
                (0..<Int(count)).compactMap { index -> (any HangUpListener)? in
                    guard let body = watches.bodies.removeValue(forKey: events[index].data.u64) else { return nil }
                    watches.tokens[ObjectIdentifier(body)] = nil
                    return body
                }
            }
            for body in left { body.clientLeft() }
        }
    }
}
