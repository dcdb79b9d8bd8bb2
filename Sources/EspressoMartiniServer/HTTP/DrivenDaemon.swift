internal import CMicroHTTPD

/// A libmicrohttpd daemon without threads of its own, which a `ServingLoop` drives from its thread.
struct DrivenDaemon: @unchecked Sendable {
    let raw: OpaquePointer

    /// libmicrohttpd's epoll set: its listening socket, its connections, and the loop's wake-up.
    var epollDescriptor: Int32 {
        em_daemon_epoll_fd(raw)
    }

    /// Handles whatever is ready: new connections, bytes on connections, resumed connections, idle ones
    /// timed out. Does not wait.
    func run() {
        _ = MHD_run(raw)
    }

    /// Waits on libmicrohttpd's own set up to `milliseconds` (or less, when a connection's timeout is due
    /// sooner), then handles what is ready, as libmicrohttpd's own threads do.
    func run(waitingUpTo milliseconds: Int) {
        _ = MHD_run_wait(raw, Int32(clamping: milliseconds))
    }

    /// Milliseconds until the daemon must run even without an event (0: at once); nil when it needs not.
    var timeoutMilliseconds: Int? {
        var timeout: UInt64 = 0
        guard MHD_get_timeout(raw, &timeout) == .YES else { return nil }
        return Int(clamping: timeout)
    }

    /// Stops accepting: the listening socket, to be closed by the caller (-1 when there is none). On the
    /// thread that drives the daemon.
    func quiesce() -> Int32 {
        MHD_quiesce_daemon(raw)
    }
}
