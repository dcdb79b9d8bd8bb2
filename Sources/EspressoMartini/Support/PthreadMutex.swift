#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex at a fixed address, destroyed with its owner: the lock of `Locked` and `Monitor`.
/// `Synchronization.Mutex` would do, but on Linux it locks with a raw futex that the thread sanitizer
/// cannot see, so every access it guards would be reported as a race; pthread locks are understood
/// by the sanitizer, and cost the same when uncontended.
struct PthreadMutex: ~Copyable {
    /// For `pthread_cond_wait`, which releases and retakes it.
    let pointer: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        pointer = UnsafeMutablePointer.allocate(capacity: 1)
        pointer.initialize(to: pthread_mutex_t())
        pthread_mutex_init(pointer, nil)
    }

    deinit {
        pthread_mutex_destroy(pointer)
        pointer.deallocate()
    }

    func lock() {
        pthread_mutex_lock(pointer)
    }

    func unlock() {
        pthread_mutex_unlock(pointer)
    }
}
