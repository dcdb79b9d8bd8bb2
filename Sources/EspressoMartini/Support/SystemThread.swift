#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of the system's own (a pthread) running one closure. For work that waits, in place of
/// libdispatch: on Linux, once libdispatch has started a worker for a global queue, it checks its
/// pool's load every second for as long as the process lives, so an idle daemon never sleeps through.
public struct SystemThread: Sendable {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private let handle: pthread_t

    /// Starts `body` on a new thread. Call `join()` once, or the thread's resources stay until the
    /// process ends; `detached(_:)` is for a thread nobody waits for.
    public init(_ body: @escaping @Sendable () -> Void) {
        handle = Self.create(body)
    }

    /// Waits for the thread's closure to return.
    public func join() {
        pthread_join(handle, nil)
    }

    /// Starts `body` on a new thread whose resources go when it returns.
    public static func detached(_ body: @escaping @Sendable () -> Void) {
        pthread_detach(create(body))
    }

    private static func create(_ body: @escaping @Sendable () -> Void) -> pthread_t {
        var handle = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let status = pthread_create(
            &handle, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                body.run()
                return nil
            }, context)
        precondition(status == 0, "cannot start a thread: \(String(cString: strerror(status)))")
        return handle
    }
}
