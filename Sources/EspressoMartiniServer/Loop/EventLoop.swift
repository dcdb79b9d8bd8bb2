import EspressoMartini

/// The thread that drives a set of connections, and what code confined to it asks of it: a `ServingLoop`,
/// or a test's own. Code that must run on that thread says so with `assertInEventLoop()`, which fails at
/// once in a debug build (every test runs one) when it is called from another thread.
protocol EventLoop: AnyObject, Sendable {
    /// Whether the caller runs on the loop's thread.
    var inEventLoop: Bool { get }
    /// Runs `work` on the loop's thread before the loop next waits; on the caller's thread once the loop has
    /// ended (nothing else runs then). Any thread.
    func execute(_ work: @escaping @Sendable () -> Void)
    /// Runs `action` on the loop's thread once `seconds` have passed. On the loop's thread.
    func schedule(after seconds: Double, _ action: @escaping () -> Void)
    /// Tells `listener` (`clientLeft()`, on the loop's thread) once the client on `socket` closes its
    /// connection. On the loop's thread, while libmicrohttpd keeps the socket open; -1 is not watched.
    func watchHangUp(of socket: Int32, for listener: any HangUpListener)
    /// `listener` is done: a later hang-up reaches nothing. Any thread.
    func forgetHangUp(of listener: any HangUpListener)
    /// A connection the loop drives was resumed: the loop runs libmicrohttpd before it waits again. Any
    /// thread.
    func connectionResumed()
    /// What the loop forwards through, with a proxy.
    var lane: ForwardingLane? { get }
}

extension EventLoop {
    /// Runs `work` on the loop's thread (at once when called there, or when the loop is not running) and
    /// returns its result once it has run.
    func performAndWait<Result: Sendable>(_ work: @escaping @Sendable () -> Result) -> Result {
        if inEventLoop { return work() }
        let done = Monitor<Result?>(nil)
        execute {
            let result = work()
            done.withLock { $0 = result }
            done.broadcast()
        }
        done.wait { $0 != nil }
        return done.withLock { $0! }
    }

    /// Fails a debug build when the caller is not on the loop's thread (release builds check nothing).
    @inline(__always)
    func assertInEventLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(inEventLoop, "called off its serving loop's thread", file: file, line: line)
    }
}
