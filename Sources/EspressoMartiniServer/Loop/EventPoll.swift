internal import CEpoll
import Glibc
import Synchronization

/// A serving loop's epoll set, the only code that calls epoll: descriptors watched, changed and removed,
/// each reported with a token of its watcher's, and a wake-up any thread can give. The wake-up is an eventfd,
/// edge-triggered so that it is never read, written only while the loop waits or is about to, and put in
/// libmicrohttpd's own set too (`alsoWakeWaitersOf`), where the loop waits while nothing of its own is
/// watched.
final class EventPoll: @unchecked Sendable {
    let descriptor: Int32
    private let wakeupEvent: Int32
    /// The thread waits, or is about to: the next `wakeup` writes the event.
    private let waiting = Atomic<Bool>(false)
    static let eventCapacity = 64
    private let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: EventPoll.eventCapacity)

    /// Nil when no epoll set or eventfd can be made.
    init?() {
        let poll = epoll_create1(Int32(EPOLL_CLOEXEC))
        let wakeupEvent = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard poll >= 0, wakeupEvent >= 0 else {
            if poll >= 0 { close(poll) }
            if wakeupEvent >= 0 { close(wakeupEvent) }
            events.deallocate()
            return nil
        }
        descriptor = poll
        self.wakeupEvent = wakeupEvent
    }

    deinit {
        close(descriptor)
        close(wakeupEvent)
        events.deallocate()
    }

    /// Reading, writing, the peer's end, and edge-triggered reporting, as `watch` takes them.
    static let readable = EPOLLIN.rawValue
    static let writable = EPOLLOUT.rawValue
    static let peerClosed = EPOLLRDHUP.rawValue
    static let hungUp = EPOLLHUP.rawValue
    static let failed = EPOLLERR.rawValue
    static let edgeTriggered = EPOLLET.rawValue
    static let once = EPOLLONESHOT.rawValue

    /// Watches `descriptor` for `events` (level-triggered unless they say `edgeTriggered`), reported with
    /// `token`; false when epoll refuses (`errno` says why: `EEXIST` when it is watched already).
    func watch(_ descriptor: Int32, for events: UInt32, token: UInt64) -> Bool {
        control(EPOLL_CTL_ADD, descriptor, events, token)
    }

    /// Changes what a watched `descriptor` is watched for, and its token; false when epoll refuses.
    func modify(_ descriptor: Int32, for events: UInt32, token: UInt64) -> Bool {
        control(EPOLL_CTL_MOD, descriptor, events, token)
    }

    /// Stops watching `descriptor` (closing it does so too); false when it was not watched.
    @discardableResult
    func remove(_ descriptor: Int32) -> Bool {
        epoll_ctl(self.descriptor, EPOLL_CTL_DEL, descriptor, nil) == 0
    }

    private func control(_ operation: Int32, _ descriptor: Int32, _ events: UInt32, _ token: UInt64) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        return epoll_ctl(self.descriptor, operation, descriptor, &event) == 0
    }

    /// Makes `wakeup` end a wait on the epoll set `set` too (libmicrohttpd's). The wake-up is reported there
    /// with 0 as its data, which libmicrohttpd skips (its own "shutdown signal", in every version from
    /// 0.9.74 to 1.0.1); edge-triggered, so it never stays ready. False when epoll refuses.
    func alsoWakeWaitersOf(_ set: Int32) -> Bool {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLET.rawValue
        event.data.u64 = 0
        return epoll_ctl(set, EPOLL_CTL_ADD, wakeupEvent, &event) == 0
    }

    /// Waits up to `milliseconds` (none when `pending()`, asked once the thread counts as waiting, says
    /// there is work), then calls `ready` with each ready descriptor's token and events.
    func wait(milliseconds: Int, unless pending: () -> Bool, ready: (_ token: UInt64, _ events: UInt32) -> Void) {
        var count: Int32 = 0
        wait(milliseconds: milliseconds, unless: pending) { timeout in
            count = epoll_wait(descriptor, events, Int32(Self.eventCapacity), Int32(clamping: timeout))
        }
        for index in 0..<max(0, Int(count)) {
            ready(events[index].data.u64, events[index].events)
        }
    }

    /// Counts as waiting while `waiter` waits up to the milliseconds it is given (0 when `pending()`, asked
    /// once the thread counts as waiting, says there is work): `waiter` waits elsewhere, on a set `wakeup`
    /// also ends (`alsoWakeWaitersOf`).
    func wait(milliseconds: Int, unless pending: () -> Bool, by waiter: (_ milliseconds: Int) -> Void) {
        var timeout = milliseconds
        if timeout > 0 {
            waiting.store(true, ordering: .sequentiallyConsistent)
            if pending() { timeout = 0 }
        }
        waiter(timeout)
        waiting.store(false, ordering: .sequentiallyConsistent)
    }

    /// Ends a `wait` now, or makes the next one return at once. Any thread.
    func wakeup() {
        guard waiting.exchange(false, ordering: .sequentiallyConsistent) else { return }
        var one: UInt64 = 1
        _ = write(wakeupEvent, &one, MemoryLayout<UInt64>.size)
    }
}
