internal import CCurl
import EspressoMartini
import Glibc

/// Many transfers driven at once by one serving loop's thread (a libcurl multi handle): it keeps the
/// connections to the target open between transfers. Every method on that thread only.
///
/// It uses libcurl's socket interface: the loop's epoll set holds the sockets libcurl asks to watch,
/// and a ready socket moves only the transfers on it, so no call walks every transfer (and polls each
/// socket) as `curl_multi_perform` does. A socket libcurl no longer watches (a connection kept alive
/// between two transfers) stays in the set until it is wanted with other events or reports something, so
/// that a kept-alive connection costs no system call between its transfers. Only connections stay: libcurl
/// tells when it opens one (`socketOpened`) and closes them through `closeSocket`, which forgets them; its
/// other sockets (the resolver's) it closes without telling, so they leave the set and the table as soon as
/// it stops watching them, lest a new socket of the same number be taken for one in the set.
final class CurlUpstreamClient: UpstreamClient, @unchecked Sendable {
    private let library: CurlLibrary
    private let handle: UnsafeMutableRawPointer
    private let settings: CurlSettings
    private let poll: EventPoll

    // On the loop's thread only.
    /// When libcurl's timer runs out (monotonic nanoseconds); nil when it has none.
    private var timerDue: UInt64?
    /// What is known of each of libcurl's sockets.
    private var sockets: [Int32: SocketWatch] = [:]
    /// Sockets whose wanted events changed since the set was last brought in line.
    private var changedSockets: [Int32] = []

    private struct SocketWatch {
        /// The events libcurl wants (none once it stopped watching the socket).
        var wanted: UInt32
        /// The events the epoll set holds for it (none: it is not in the set).
        var watched: UInt32
        /// A connection, which libcurl closes through `closeSocket`: it may stay in the set while unwatched.
        var isConnection: Bool
    }

    /// A multi whose sockets are watched in `poll`; nil when libcurl cannot be loaded or makes no multi handle.
    init?(connectionsKept: Int, settings: CurlSettings, poll: EventPoll) {
        guard case .success(let library) = CurlLibrary.shared, let handle = library.multiInit() else { return nil }
        self.library = library
        self.handle = handle
        self.settings = settings
        self.poll = poll
        let setopt = library.multiSetopt
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = em_curl_multi_setopt_long(setopt, handle, CURLMOPT_MAXCONNECTS, connectionsKept)
        _ = em_curl_multi_setopt_socket(setopt, handle, Self.socketCallback)
        _ = em_curl_multi_setopt_pointer(setopt, handle, CURLMOPT_SOCKETDATA, me)
        _ = em_curl_multi_setopt_timer(setopt, handle, Self.timerCallback)
        _ = em_curl_multi_setopt_pointer(setopt, handle, CURLMOPT_TIMERDATA, me)
    }

    deinit {
        _ = library.multiCleanup(handle)  // closes the kept connections, through closeSocket
    }

    func makeTransfer() -> (any UpstreamTransfer)? {
        CurlTransfer(settings: settings)
    }

    func add(_ transfer: any UpstreamTransfer) {
        let transfer = transfer as! CurlTransfer
        if !transfer.closesSocketsThroughMulti {
            transfer.closesSocketsThroughMulti = true
            let me = Unmanaged.passUnretained(self).toOpaque()
            _ = em_curl_setopt_close_socket(library.easySetopt, transfer.handle, Self.closeSocketCallback)
            _ = em_curl_setopt_pointer(library.easySetopt, transfer.handle, CURLOPT_CLOSESOCKETDATA, me)
            _ = em_curl_setopt_socket_opened(library.easySetopt, transfer.handle, Self.socketOpenedCallback)
            _ = em_curl_setopt_pointer(library.easySetopt, transfer.handle, CURLOPT_SOCKOPTDATA, me)
        }
        _ = library.multiAddHandle(handle, transfer.handle)
    }

    /// Stops `transfer` where it is (its connection is closed unless it was complete).
    func remove(_ transfer: any UpstreamTransfer) {
        _ = library.multiRemoveHandle(handle, (transfer as! CurlTransfer).handle)
    }

    /// Moves on the transfers whose time has come (just added, unpaused, or timed by libcurl); the callbacks
    /// run meanwhile.
    func runTimers() {
        guard let due = timerDue, due <= MonotonicClock.now() else { return }
        timerDue = nil  // libcurl sets it again from within the call
        var running: Int32 = 0
        _ = library.multiSocketAction(handle, em_curl_socket_timeout, 0, &running)
    }

    /// Calls `body` with each transfer that has ended since the last call, and its failure (nil: the answer is
    /// complete). They are still in the multi: `body` removes each.
    func takeEnded(_ body: (any UpstreamTransfer, TransferFailure?) -> Void) {
        var left: Int32 = 0
        while let message = library.multiInfoRead(handle, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            var context: UnsafeMutableRawPointer?
            guard em_curl_getinfo_pointer(library.easyGetinfo, easy, CURLINFO_PRIVATE, &context) == CURLE_OK,
                let context
            else { continue }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
            let code = message.pointee.data.result
            body(transfer, code == CURLE_OK ? nil : transfer.failure(code))
        }
    }

    func prepareWait(milliseconds: Int) -> Int {
        watchChangedSockets()
        guard let due = timerDue else { return milliseconds }
        let now = MonotonicClock.now()
        return due <= now ? 0 : min(milliseconds, Int((due - now + 999_999) / 1_000_000))
    }

    /// Moves on the transfers on `token`'s socket (their callbacks run meanwhile).
    func ready(token: UInt64, events ready: UInt32) {
        let socket = Int32(truncatingIfNeeded: token)
        guard let watch = sockets[socket], watch.wanted != 0 else {
            // A kept-alive connection libcurl does not watch now (the target closed it): out of the set.
            poll.remove(socket)
            sockets[socket]?.watched = 0
            return
        }
        let failed = ready & (EventPoll.failed | EventPoll.hungUp) != 0
        var action: Int32 = 0
        if ready & EventPoll.readable != 0 || (failed && watch.wanted & EventPoll.readable != 0) {
            action |= em_curl_select_in
        }
        if ready & EventPoll.writable != 0 || (failed && watch.wanted & EventPoll.writable != 0) {
            action |= em_curl_select_out
        }
        var running: Int32 = 0
        _ = library.multiSocketAction(handle, socket, action, &running)
    }

    /// Brings the epoll set in line with what libcurl wants. A socket it stopped watching stays in the set
    /// as it is when it was watched for reading only (a kept-alive connection, soon watched for reading again).
    private func watchChangedSockets() {
        for socket in changedSockets {
            guard let watch = sockets[socket], watch.wanted != watch.watched else { continue }
            if watch.wanted == 0 {
                if watch.isConnection, watch.watched == EventPoll.readable { continue }
                if watch.watched != 0 { poll.remove(socket) }
                if watch.isConnection { sockets[socket]?.watched = 0 } else { sockets[socket] = nil }
                continue
            }
            let token = EventToken.upstream(UInt64(UInt32(bitPattern: socket)))
            let done =
                watch.watched == 0
                ? poll.watch(socket, for: watch.wanted, token: token)
                : poll.modify(socket, for: watch.wanted, token: token)
            if !done {
                // Out of step with the set (never expected): try the other way.
                _ =
                    errno == EEXIST
                    ? poll.modify(socket, for: watch.wanted, token: token)
                    : poll.watch(socket, for: watch.wanted, token: token)
            }
            sockets[socket]?.watched = watch.wanted
        }
        changedSockets.removeAll(keepingCapacity: true)
    }

    private static func multi(_ context: UnsafeMutableRawPointer?) -> CurlUpstreamClient {
        Unmanaged<CurlUpstreamClient>.fromOpaque(context!).takeUnretainedValue()
    }

    /// libcurl says which events to watch on `socket`.
    private static let socketCallback: curl_socket_callback = { _, socket, what, context, _ in
        let multi = multi(context)
        var wanted: UInt32 = 0
        if what != em_curl_poll_remove {
            if what & em_curl_poll_in != 0 { wanted |= EventPoll.readable }
            if what & em_curl_poll_out != 0 { wanted |= EventPoll.writable }
        }
        if let watch = multi.sockets[socket] {
            guard watch.wanted != wanted else { return 0 }
            multi.sockets[socket]!.wanted = wanted
        } else {
            multi.sockets[socket] = SocketWatch(wanted: wanted, watched: 0, isConnection: false)
        }
        multi.changedSockets.append(socket)
        return 0
    }

    /// libcurl's timer: -1 stops it, else it runs out in this many milliseconds.
    private static let timerCallback: curl_multi_timer_callback = { _, milliseconds, context in
        multi(context).timerDue = milliseconds < 0 ? nil : MonotonicClock.now() + UInt64(milliseconds) * 1_000_000
        return 0
    }

    /// libcurl opened a connection's socket, which is in no epoll set yet, whatever a socket of the same
    /// number closed without telling left in the table; the events libcurl wants stay, as libcurl takes it for
    /// that socket.
    private static let socketOpenedCallback: curl_sockopt_callback = { context, socket, _ in
        let multi = multi(context)
        let wanted = multi.sockets[socket]?.wanted ?? 0
        multi.sockets[socket] = SocketWatch(wanted: wanted, watched: 0, isConnection: true)
        if wanted != 0 { multi.changedSockets.append(socket) }
        return em_curl_sockopt_ok
    }

    /// libcurl closes one of its sockets: closing it takes it out of the epoll set, and its number may come back.
    private static let closeSocketCallback: curl_closesocket_callback = { context, socket in
        multi(context).sockets[socket] = nil
        return close(socket)
    }
}
