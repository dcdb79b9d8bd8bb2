#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a pthread mutex, with a condition variable: one thread sleeps in `wait(until:)`
/// until another changes the value and calls `signal()`. Pthread primitives, like `Locked`'s, so that
/// the thread sanitizer sees the ordering they give.
public final class Monitor<Value>: @unchecked Sendable {
    private let mutex = PthreadMutex()
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        condition = UnsafeMutablePointer.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        // Timed waits count on the monotonic clock, which a change of the system's date does not move.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&value)
    }

    /// Takes the lock and calls `isReady` until it returns true, sleeping (the lock released) between
    /// calls until a `signal()`; a wake-up without one is possible, hence the loop. `isReady` runs under
    /// the lock and may change the value, for instance to note that a thread sleeps.
    public func wait(until isReady: (inout Value) -> Bool) {
        mutex.lock()
        defer { mutex.unlock() }
        while !isReady(&value) {
            pthread_cond_wait(condition, mutex.pointer)
        }
    }

    /// Like `wait(until:)`, but each sleep ends at the latest at `deadline(value)`, a time of
    /// `MonotonicClock.now()` (no limit while it gives nil); `isReady` is then called again.
    public func wait(until isReady: (inout Value) -> Bool, wakingAt deadline: (Value) -> UInt64?) {
        mutex.lock()
        defer { mutex.unlock() }
        while !isReady(&value) {
            if let deadline = deadline(value) {
                var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
                pthread_cond_timedwait(condition, mutex.pointer, &time)
            } else {
                pthread_cond_wait(condition, mutex.pointer)
            }
        }
    }

    /// Wakes one thread sleeping in `wait(until:)`, if any. A system call when one sleeps: callers
    /// keep a note in the value of whether one does.
    public func signal() {
        pthread_cond_signal(condition)
    }

    /// Wakes every thread sleeping in `wait(until:)`.
    public func broadcast() {
        pthread_cond_broadcast(condition)
    }
}
