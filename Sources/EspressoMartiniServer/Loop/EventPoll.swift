internal import CEpoll
import Glibc
import Synchronization

/// A serving loop's epoll set, with a wake-up any thread can give: an eventfd in the set, edge-triggered, so
/// it is never read, and written only while the loop waits or is about to.
final class EventPoll: @unchecked Sendable {
    let descriptor: Int32
    private let wakeupEvent: Int32
    /// The thread waits, or is about to: the next `wakeup` writes the event.
    private let waiting = Atomic<Bool>(false)
    static let wakeupToken = UInt64.max
    static let eventCapacity = 64
    private let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: EventPoll.eventCapacity)

    /// Nil when no epoll set or eventfd can be made.
    init?() {
        let poll = epoll_create1(Int32(EPOLL_CLOEXEC))
        let wakeupEvent = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLET.rawValue
        event.data.u64 = Self.wakeupToken
        guard poll >= 0, wakeupEvent >= 0, epoll_ctl(poll, EPOLL_CTL_ADD, wakeupEvent, &event) == 0 else {
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

    /// Watches `descriptor` for `events` (level-triggered unless they say `EPOLLET`), reported with `token`,
    /// which must not be `wakeupToken`; false when epoll refuses.
    func watch(_ descriptor: Int32, for events: UInt32, token: UInt64) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        return epoll_ctl(self.descriptor, EPOLL_CTL_ADD, descriptor, &event) == 0
    }

    /// Waits up to `milliseconds` (none when `pending()`, asked once the thread counts as waiting, says
    /// there is work), then calls `ready` with each ready descriptor's token and events, the wake-up's left out.
    func wait(milliseconds: Int, unless pending: () -> Bool, ready: (_ token: UInt64, _ events: UInt32) -> Void) {
        var timeout = milliseconds
        if timeout > 0 {
            waiting.store(true, ordering: .sequentiallyConsistent)
            if pending() { timeout = 0 }
        }
        let count = epoll_wait(descriptor, events, Int32(Self.eventCapacity), Int32(clamping: timeout))
        waiting.store(false, ordering: .sequentiallyConsistent)
        for index in 0..<max(0, Int(count)) where events[index].data.u64 != Self.wakeupToken {
            ready(events[index].data.u64, events[index].events)
        }
    }

    /// Ends a `wait` now, or makes the next one return at once. Any thread.
    func wakeup() {
        guard waiting.exchange(false, ordering: .sequentiallyConsistent) else { return }
        var one: UInt64 = 1
        _ = write(wakeupEvent, &one, MemoryLayout<UInt64>.size)
    }
}
