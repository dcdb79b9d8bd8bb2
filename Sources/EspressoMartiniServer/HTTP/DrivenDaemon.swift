internal import CMicroHTTPD

/// A libmicrohttpd daemon without threads of its own, which a `ServingLoop` drives from its thread.
struct DrivenDaemon: @unchecked Sendable {
    let raw: OpaquePointer

    /// libmicrohttpd's epoll set, which the loop watches for the daemon's sockets.
    var epollDescriptor: Int32 {
        em_daemon_epoll_fd(raw)
    }

    /// Handles whatever is ready: new connections, bytes on connections, resumed connections, idle ones
    /// timed out. Does not wait.
    func run() {
        _ = MHD_run(raw)
    }

    /// Milliseconds until the daemon must run even without an event (0: at once); nil when it needs not.
    var timeoutMilliseconds: Int? {
        var timeout: UInt64 = 0
        guard MHD_get_timeout(raw, &timeout) == .YES else { return nil }
        return Int(clamping: timeout)
    }
}
