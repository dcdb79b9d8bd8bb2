internal import CCurl
internal import CEpoll
import EspressoMartini
import Glibc

// libcurl behind Swift types: the only file that sees its C API. The library (its GnuTLS build, as Debian
// ships it) is loaded with dlopen the first time a server with a `proxy` starts, so a server without one
// neither maps it nor the thirty libraries it links. `HTTPClientTransfer` is one request to the target (an
// easy handle); `HTTPClientMulti` drives many at once on one thread (a multi handle, which keeps the
// connections to the target alive between transfers).

/// libcurl's functions, resolved with dlsym.
private struct CurlLibrary: @unchecked Sendable {
    static let soname = "libcurl-gnutls.so.4"
    static let debianPackage = "libcurl3-gnutls"

    let easyInit: EMCurlEasyInit
    let easyCleanup: EMCurlEasyCleanup
    let easySetopt: EMCurlEasySetopt
    let easyGetinfo: EMCurlEasyGetinfo
    let easyPause: EMCurlEasyPause
    let easyStrerror: EMCurlEasyStrerror
    let multiInit: EMCurlMultiInit
    let multiCleanup: EMCurlMultiCleanup
    let multiSetopt: EMCurlMultiSetopt
    let multiAddHandle: EMCurlMultiAddHandle
    let multiRemoveHandle: EMCurlMultiRemoveHandle
    let multiSocketAction: EMCurlMultiSocketAction
    let multiInfoRead: EMCurlMultiInfoRead

    /// Loaded, and initialised once, by whichever thread asks first; why not, when it cannot be.
    static let shared: Result<CurlLibrary, HTTPClientUnavailable> = load()

    private static func load() -> Result<CurlLibrary, HTTPClientUnavailable> {
        guard let dynamic = DynamicLibrary(soname) else {
            return .failure(HTTPClientUnavailable(description: "forwarding to a proxy target needs libcurl (\(soname)), which cannot be loaded: install the Debian package \(debianPackage)"))
        }
        let globalInit = dynamic.function("curl_global_init", as: EMCurlGlobalInit.self)
        let library = CurlLibrary(
            easyInit: dynamic.function("curl_easy_init", as: EMCurlEasyInit.self), easyCleanup: dynamic.function("curl_easy_cleanup", as: EMCurlEasyCleanup.self),
            easySetopt: dynamic.function("curl_easy_setopt", as: EMCurlEasySetopt.self),
            easyGetinfo: dynamic.function("curl_easy_getinfo", as: EMCurlEasyGetinfo.self), easyPause: dynamic.function("curl_easy_pause", as: EMCurlEasyPause.self),
            easyStrerror: dynamic.function("curl_easy_strerror", as: EMCurlEasyStrerror.self), multiInit: dynamic.function("curl_multi_init", as: EMCurlMultiInit.self),
            multiCleanup: dynamic.function("curl_multi_cleanup", as: EMCurlMultiCleanup.self), multiSetopt: dynamic.function("curl_multi_setopt", as: EMCurlMultiSetopt.self),
            multiAddHandle: dynamic.function("curl_multi_add_handle", as: EMCurlMultiAddHandle.self),
            multiRemoveHandle: dynamic.function("curl_multi_remove_handle", as: EMCurlMultiRemoveHandle.self),
            multiSocketAction: dynamic.function("curl_multi_socket_action", as: EMCurlMultiSocketAction.self),
            multiInfoRead: dynamic.function("curl_multi_info_read", as: EMCurlMultiInfoRead.self)
        )
        guard let library, let globalInit else {
            return .failure(HTTPClientUnavailable(description: "the libcurl library \(soname) lacks \(dynamic.missing.joined(separator: ", ")); install libcurl 7.68 or newer (\(debianPackage))"))
        }
        guard globalInit(em_curl_global_default) == CURLE_OK else {
            return .failure(HTTPClientUnavailable(description: "libcurl (\(soname)) cannot be initialised"))
        }
        return .success(library)
    }

    private init?(
        easyInit: EMCurlEasyInit?, easyCleanup: EMCurlEasyCleanup?, easySetopt: EMCurlEasySetopt?,
        easyGetinfo: EMCurlEasyGetinfo?, easyPause: EMCurlEasyPause?, easyStrerror: EMCurlEasyStrerror?, multiInit: EMCurlMultiInit?, multiCleanup: EMCurlMultiCleanup?, multiSetopt: EMCurlMultiSetopt?,
        multiAddHandle: EMCurlMultiAddHandle?, multiRemoveHandle: EMCurlMultiRemoveHandle?, multiSocketAction: EMCurlMultiSocketAction?,
        multiInfoRead: EMCurlMultiInfoRead?
    ) {
        guard let easyInit, let easyCleanup, let easySetopt, let easyGetinfo, let easyPause, let easyStrerror,
              let multiInit, let multiCleanup, let multiSetopt, let multiAddHandle, let multiRemoveHandle, let multiSocketAction,
              let multiInfoRead else { return nil }
        self.easyInit = easyInit
        self.easyCleanup = easyCleanup
        self.easySetopt = easySetopt
        self.easyGetinfo = easyGetinfo
        self.easyPause = easyPause
        self.easyStrerror = easyStrerror
        self.multiInit = multiInit
        self.multiCleanup = multiCleanup
        self.multiSetopt = multiSetopt
        self.multiAddHandle = multiAddHandle
        self.multiRemoveHandle = multiRemoveHandle
        self.multiSocketAction = multiSocketAction
        self.multiInfoRead = multiInfoRead
    }
}

/// Why the HTTP client cannot be used (libcurl missing or too old): a configuration error for `proxy`.
struct HTTPClientUnavailable: Error, CustomStringConvertible {
    let description: String
}

/// Whether libcurl can be loaded; the message saying what to install when not.
func loadHTTPClient() -> HTTPClientUnavailable? {
    if case .failure(let problem) = CurlLibrary.shared { return problem }
    return nil
}

/// How a server's transfers reach its target, the same for all of them: set once per transfer.
struct HTTPClientSettings: Sendable {
    /// Seconds to connect (TLS handshake included).
    var connectTimeout: Double
    var verifiesTLS: Bool
    /// A PEM file of the certificate authorities to trust instead of the system's.
    var certificateAuthorities: String?
}

/// One request to the target, as libcurl is told it; its URL and header lines are in the transfer's `text`.
struct UpstreamRequest: Sendable, Equatable {
    /// The body the request carries: none, one of this many bytes (`Content-Length`), or one of unknown
    /// length (sent chunked).
    enum Body: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    var method: String
    var body: Body
}

/// What a transfer's callbacks report, on the thread that drives it (`HTTPClientMulti`'s).
protocol HTTPClientTransferReceiver: AnyObject {
    /// One line of the answer's head (the status line, a header, the empty line that ends it), with its CR LF:
    /// libcurl's transfers hand the head over this way.
    func transferHeaderLine(_ line: UnsafeRawBufferPointer)
    /// The answer's final head, whole: the client of its own reads it this way.
    func transferHead(_ head: UpstreamHead)
    /// Bytes of the answer's body, as received (not content-decoded); false pauses the transfer's receiving
    /// without taking them: they come again once `HTTPClientTransfer.unpause()` is called.
    func transferBody(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Bytes of the request's body for the target.
    func transferUpload(into buffer: UnsafeMutableRawBufferPointer) -> UploadStep
}

/// What a transfer's upload does next.
enum UploadStep {
    /// This many bytes were written.
    case bytes(Int)
    /// The body is complete.
    case end
    /// None yet: the upload pauses until `HTTPClientTransfer.unpause()`.
    case wait
    /// The transfer fails.
    case abort
}

/// Why a transfer failed.
struct TransferFailure: Error, Sendable {
    /// It ran out of time.
    let timedOut: Bool
    /// libcurl's words for it (`Failed to connect to 127.0.0.1 port 9: Connection refused`).
    let reason: String
    /// It was stopped because the server stops.
    var serverStopping = false
}

/// One request to the target: a libcurl easy handle, reused for transfer after transfer (what stays the same
/// is set once, so that libcurl keeps its buffers). Configured on any thread while it is in no
/// `HTTPClientMulti`; driven only by the multi's thread.
final class HTTPClientTransfer: UpstreamTransfer, @unchecked Sendable {
    private let library: CurlLibrary
    fileprivate let handle: UnsafeMutableRawPointer
    /// Its sockets are closed through the multi it was added to, which is always the same one.
    fileprivate var closesSocketsThroughMulti = false
    /// The next request's URL and header lines, written by the caller before `configure`; read by libcurl
    /// while the transfer runs.
    let text = UpstreamRequestText(style: .curl)
    var lanePosition = -1
    /// libcurl's header list, made of nodes pointing into `text`: no copy, nothing allocated per request.
    private var headerNodes: UnsafeMutablePointer<curl_slist>
    private var headerNodeCapacity = 32
    /// The method and body of the last request, whose options the next one may keep.
    private var lastRequest = UpstreamRequest(method: "GET", body: .none)
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// Retained by the transfer while it runs: its callbacks reach it unretained.
    private(set) var receiver: HTTPClientTransferReceiver?

    /// Nil when libcurl cannot be loaded or makes no handle.
    init?(settings: HTTPClientSettings) {
        guard case .success(let library) = CurlLibrary.shared, let handle = library.easyInit() else { return nil }
        self.library = library
        self.handle = handle
        headerNodes = .allocate(capacity: headerNodeCapacity)
        let setopt = library.easySetopt
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_NOSIGNAL, 1)
        // The target is reached directly: proxies named in the environment (http_proxy) are not used.
        _ = em_curl_setopt_string(setopt, handle, CURLOPT_PROXY, "")
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_TCP_NODELAY, 1)
        // The path as the client sent it, and the body as the target sent it (no content decoding).
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_PATH_AS_IS, 1)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTP_CONTENT_DECODING, 0)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_BUFFERSIZE, 64 * 1024)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_UPLOAD_BUFFERSIZE, 64 * 1024)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_CONNECTTIMEOUT_MS, max(1, Int(settings.connectTimeout * 1000)))
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_SSL_VERIFYPEER, settings.verifiesTLS ? 1 : 0)
        _ = em_curl_setopt_long(setopt, handle, CURLOPT_SSL_VERIFYHOST, settings.verifiesTLS ? 2 : 0)
        if let authorities = settings.certificateAuthorities { _ = em_curl_setopt_string(setopt, handle, CURLOPT_CAINFO, authorities) }
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_ERRORBUFFER, errorBuffer)
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_PRIVATE, me)
        _ = em_curl_setopt_callback(setopt, handle, CURLOPT_READFUNCTION, Self.readCallback)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_READDATA, me)
        _ = em_curl_setopt_callback(setopt, handle, CURLOPT_HEADERFUNCTION, Self.headerCallback)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_HEADERDATA, me)
        _ = em_curl_setopt_callback(setopt, handle, CURLOPT_WRITEFUNCTION, Self.writeCallback)
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_WRITEDATA, me)
    }

    deinit {
        library.easyCleanup(handle)
        headerNodes.deallocate()
        errorBuffer.deallocate()
    }

    /// Sets the transfer up for `request`, whose URL and header lines are in `text`, reporting to `receiver`.
    func configure(_ request: UpstreamRequest, receiver: HTTPClientTransferReceiver) {
        self.receiver = receiver
        errorBuffer[0] = 0
        let setopt = library.easySetopt
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_URL, text.bytes)  // copied by libcurl
        if request != lastRequest {
            // Back to a plain GET, then the request's own method and body.
            _ = em_curl_setopt_long(setopt, handle, CURLOPT_HTTPGET, 1)
            _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_CUSTOMREQUEST, nil)
            _ = em_curl_setopt_offset(setopt, handle, CURLOPT_INFILESIZE_LARGE, -1)
            switch (request.method, request.body) {
            case ("GET", .none): break
            case ("HEAD", _): _ = em_curl_setopt_long(setopt, handle, CURLOPT_NOBODY, 1)
            default: _ = em_curl_setopt_string(setopt, handle, CURLOPT_CUSTOMREQUEST, request.method)
            }
            if request.body != .none {
                _ = em_curl_setopt_long(setopt, handle, CURLOPT_UPLOAD, 1)
                if case .length(let length) = request.body { _ = em_curl_setopt_offset(setopt, handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(length)) }
            }
            lastRequest = request
        }
        let lines = text.lineStarts
        if lines.count > headerNodeCapacity {
            headerNodes.deallocate()
            headerNodeCapacity = lines.count
            headerNodes = .allocate(capacity: headerNodeCapacity)
        }
        for (index, start) in lines.enumerated() {
            let next = index + 1 < lines.count ? headerNodes + index + 1 : nil
            (headerNodes + index).initialize(to: curl_slist(data: UnsafeMutableRawPointer(text.bytes + start).assumingMemoryBound(to: CChar.self), next: next))
        }
        _ = em_curl_setopt_pointer(setopt, handle, CURLOPT_HTTPHEADER, lines.isEmpty ? nil : UnsafeMutableRawPointer(headerNodes))
    }

    /// Lets go of the receiver once the transfer has ended.
    func release() {
        receiver = nil
    }

    /// Receiving and sending go on after a pause. On the multi's thread; the callbacks may run at once.
    func unpause() {
        _ = library.easyPause(handle, em_curl_pause_continue)
    }

    fileprivate func failure(_ code: CURLcode) -> TransferFailure {
        let detail = String(cString: errorBuffer)
        return TransferFailure(timedOut: code == CURLE_OPERATION_TIMEDOUT, reason: detail.isEmpty ? library.easyStrerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)" : detail)
    }

    private static func transfer(_ context: UnsafeMutableRawPointer?) -> HTTPClientTransfer {
        Unmanaged<HTTPClientTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    private static let headerCallback: curl_write_callback = { bytes, size, count, context in
        let length = size * count
        guard let receiver = transfer(context).receiver else { return 0 }
        receiver.transferHeaderLine(UnsafeRawBufferPointer(start: bytes, count: length))
        return length
    }

    private static let writeCallback: curl_write_callback = { bytes, size, count, context in
        let length = size * count
        guard let receiver = transfer(context).receiver else { return 0 }
        return receiver.transferBody(UnsafeRawBufferPointer(start: bytes, count: length)) ? length : em_curl_write_pause
    }

    private static let readCallback: curl_read_callback = { bytes, size, count, context in
        guard let receiver = transfer(context).receiver, let bytes else { return em_curl_read_abort }
        switch receiver.transferUpload(into: UnsafeMutableRawBufferPointer(start: bytes, count: size * count)) {
        case .bytes(let written): return written
        case .end: return 0
        case .wait: return em_curl_read_pause
        case .abort: return em_curl_read_abort
        }
    }
}

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
final class HTTPClientMulti: UpstreamClient, @unchecked Sendable {
    private let library: CurlLibrary
    private let handle: UnsafeMutableRawPointer
    private let settings: HTTPClientSettings
    private let poll: EventPoll
    private var pollDescriptor: Int32 { poll.descriptor }

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
    init?(connectionsKept: Int, settings: HTTPClientSettings, poll: EventPoll) {
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
        HTTPClientTransfer(settings: settings)
    }

    func add(_ transfer: any UpstreamTransfer) {
        let transfer = transfer as! HTTPClientTransfer
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
        _ = library.multiRemoveHandle(handle, (transfer as! HTTPClientTransfer).handle)
    }

    /// Moves on the transfers whose time has come (just added, unpaused, or timed by libcurl); the callbacks
    /// run meanwhile.
    func runTimers() {
        guard let due = timerDue, due <= Monitor<Int>.now() else { return }
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
            guard em_curl_getinfo_pointer(library.easyGetinfo, easy, CURLINFO_PRIVATE, &context) == CURLE_OK, let context else { continue }
            let transfer = Unmanaged<HTTPClientTransfer>.fromOpaque(context).takeUnretainedValue()
            let code = message.pointee.data.result
            body(transfer, code == CURLE_OK ? nil : transfer.failure(code))
        }
    }

    func prepareWait(milliseconds: Int) -> Int {
        watchChangedSockets()
        guard let due = timerDue else { return milliseconds }
        let now = Monitor<Int>.now()
        return due <= now ? 0 : min(milliseconds, Int((due - now + 999_999) / 1_000_000))
    }

    /// Moves on the transfers on `token`'s socket (their callbacks run meanwhile).
    func ready(token: UInt64, events ready: UInt32) {
        let socket = Int32(truncatingIfNeeded: token)
        guard let watch = sockets[socket], watch.wanted != 0 else {
            // A kept-alive connection libcurl does not watch now (the target closed it): out of the set.
            _ = epoll_ctl(pollDescriptor, EPOLL_CTL_DEL, socket, nil)
            sockets[socket]?.watched = 0
            return
        }
        let failed = ready & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0
        var action: Int32 = 0
        if ready & EPOLLIN.rawValue != 0 || (failed && watch.wanted & EPOLLIN.rawValue != 0) { action |= em_curl_select_in }
        if ready & EPOLLOUT.rawValue != 0 || (failed && watch.wanted & EPOLLOUT.rawValue != 0) { action |= em_curl_select_out }
        var running: Int32 = 0
        _ = library.multiSocketAction(handle, socket, action, &running)
    }

    /// Brings the epoll set in line with what libcurl wants. A socket it stopped watching stays in the set
    /// as it is when it was watched for reading only (a kept-alive connection, soon watched for reading again).
    private func watchChangedSockets() {
        for socket in changedSockets {
            guard let watch = sockets[socket], watch.wanted != watch.watched else { continue }
            if watch.wanted == 0 {
                if watch.isConnection, watch.watched == EPOLLIN.rawValue { continue }
                if watch.watched != 0 { _ = epoll_ctl(pollDescriptor, EPOLL_CTL_DEL, socket, nil) }
                if watch.isConnection { sockets[socket]?.watched = 0 } else { sockets[socket] = nil }
                continue
            }
            var event = epoll_event()
            event.events = watch.wanted
            event.data.u64 = UInt64(UInt32(bitPattern: socket))
            if epoll_ctl(pollDescriptor, watch.watched == 0 ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, socket, &event) != 0 {
                // Out of step with the set (never expected): try the other way.
                _ = epoll_ctl(pollDescriptor, errno == EEXIST ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, socket, &event)
            }
            sockets[socket]?.watched = watch.wanted
        }
        changedSockets.removeAll(keepingCapacity: true)
    }

    private static func multi(_ context: UnsafeMutableRawPointer?) -> HTTPClientMulti {
        Unmanaged<HTTPClientMulti>.fromOpaque(context!).takeUnretainedValue()
    }

    /// libcurl says which events to watch on `socket`.
    private static let socketCallback: curl_socket_callback = { _, socket, what, context, _ in
        let multi = multi(context)
        var wanted: UInt32 = 0
        if what != em_curl_poll_remove {
            if what & em_curl_poll_in != 0 { wanted |= EPOLLIN.rawValue }
            if what & em_curl_poll_out != 0 { wanted |= EPOLLOUT.rawValue }
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
        multi(context).timerDue = milliseconds < 0 ? nil : Monitor<Int>.now() + UInt64(milliseconds) * 1_000_000
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
