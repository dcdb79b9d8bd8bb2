internal import CMicroHTTPD
internal import CMicroHTTPDAnswers
import EspressoMartini
import Glibc

/// libmicrohttpd answering through a `RequestHandler`, with suspend and resume allowed: one daemon per
/// `ServingLoop`, without threads of its own, each driven by its loop's thread and each on a descriptor of
/// the same listening socket, so that a connection goes to the loop that accepts it first.
final class HTTPDaemon: @unchecked Sendable {
    private let daemons: [OpaquePointer]
    private let loops: [ServingLoop]
    /// What libmicrohttpd's callbacks are given as their context: a class of known type, so that a callback
    /// reaches the handler without a dynamic cast (a cast to the protocol cost each call a conformance lookup).
    private final class HandlerBox {
        /// Not retained: the handler (the server) outlives its daemon.
        unowned(unsafe) let handler: any RequestHandler
        /// The loop driving the daemon, for its connections.
        unowned(unsafe) let loop: ServingLoop
        init(_ handler: any RequestHandler, loop: ServingLoop) {
            self.handler = handler
            self.loop = loop
        }
    }
    private let boxes: [HandlerBox]
    /// Every running daemon's box, for the library's own answers, which come with their connection only.
    private static let running = Locked<[OpaquePointer: HandlerBox]>([:])

    /// Starts one daemon per loop on `socket` (taken over), each started on its loop;
    /// `tlsCertificateCallback` (a GnuTLS certificate retrieval function) serves HTTPS. Nil when
    /// libmicrohttpd cannot start.
    init?(
        socket: Int32, ipv6: Bool, connectionTimeout: Int, connectionLimit: Int, handler: RequestHandler,
        tlsCertificateCallback: UnsafeMutableRawPointer?, loops: [ServingLoop]
    ) {
        var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if ipv6 { flags |= MHD_USE_IPv6.rawValue }
        // Each daemon has a descriptor of the socket of its own, which it closes when it stops. The
        // connection limit is shared out.
        var daemons: [OpaquePointer] = []
        var boxes: [HandlerBox] = []
        for loop in loops {
            let box = HandlerBox(handler, loop: loop)
            let descriptor = dup(socket)
            let started =
                descriptor >= 0
                ? Self.start(
                    flags: flags, socket: descriptor, connectionTimeout: connectionTimeout,
                    connectionLimit: max(1, connectionLimit / loops.count), box: box,
                    tlsCertificateCallback: tlsCertificateCallback
                ) : nil
            guard let raw = started, loop.start(driving: DrivenDaemon(raw: raw)) else {
                if let started { MHD_stop_daemon(started) } else if descriptor >= 0 { close(descriptor) }
                for (loop, raw) in zip(loops, daemons) {
                    loop.stop()
                    MHD_stop_daemon(raw)
                }
                close(socket)
                return nil
            }
            daemons.append(raw)
            boxes.append(box)
        }
        close(socket)
        self.daemons = daemons
        self.boxes = boxes
        self.loops = loops
        Self.running.withLock { running in
            for (raw, box) in zip(daemons, boxes) { running[raw] = box }
        }
        em_set_library_answer(Self.libraryAnswerHandler)
    }

    private static func start(
        flags: UInt32, socket: Int32, connectionTimeout: Int, connectionLimit: Int, box: HandlerBox,
        tlsCertificateCallback: UnsafeMutableRawPointer?
    ) -> OpaquePointer? {
        // Unretained: the daemon keeps its box as long as libmicrohttpd runs.
        em_start_daemon(
            flags, socket, UInt32(connectionTimeout), UInt32(connectionLimit), ConnectionMemory.bytes,
            accessHandler, completedHandler, requestStartHandler, Unmanaged.passUnretained(box).toOpaque(),
            tlsCertificateCallback
        )
    }

    /// Stops accepting, and closes the listening socket.
    func quiesce() {
        // On each loop's thread, which is the only one that may touch its daemon's epoll set.
        for (loop, raw) in zip(loops, daemons) {
            let listener = loop.performAndWait { [daemon = DrivenDaemon(raw: raw)] in daemon.quiesce() }
            if listener >= 0 { close(listener) }
        }
    }

    /// Stops every loop; no connection may be suspended then.
    func stop() {
        for loop in loops { loop.stop() }
        for raw in daemons { MHD_stop_daemon(raw) }
        Self.running.withLock { running in
            for raw in daemons { running[raw] = nil }
        }
    }

    /// Whether this libmicrohttpd serves HTTPS with a certificate callback.
    static var servesTLS: Bool {
        MHD_is_feature_supported(.FEATURE_TLS) == .YES && MHD_is_feature_supported(.FEATURE_HTTPS_CERT_CALLBACK) == .YES
    }

    private static func box(_ cls: UnsafeMutableRawPointer) -> HandlerBox {
        Unmanaged<HandlerBox>.fromOpaque(cls).takeUnretainedValue()
    }

    // The C callbacks, on a loop's thread: `cls` is the handler's box, `con_cls` holds a
    // retained `RequestState` per request, from the request line to the completion notice.

    private static let requestStartHandler:
        @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
            cls, uri, _ in
            guard let cls else { return nil }
            return Unmanaged.passRetained(box(cls).handler.requestStarted(uri: uri)).toOpaque()
        }

    private static let accessHandler: MHD_AccessHandlerCallback = {
        cls, connection, url, method, _, upload, uploadSize, context in
        guard let cls, let connection, let url, let method, let uploadSize, let raw = context?.pointee else {
            return .NO
        }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        let body = UnsafeRawBufferPointer(start: upload, count: upload == nil ? 0 : uploadSize.pointee)
        uploadSize.pointee = 0  // consumed: bodies are never buffered whole
        let box = box(cls)
        return box.handler.received(
            state, on: HTTPConnection(raw: connection, loop: box.loop), url: url, method: method, body: body)
            ? .YES : .NO
    }

    /// On the connection's loop: the library's own answer, replaced by the handler's, or -1 to let it go.
    private static let libraryAnswerHandler: @convention(c) (OpaquePointer?, UInt32) -> Int32 = { connection, status in
        guard let connection, let daemon = em_connection_daemon(connection),
            let box = running.withLock({ $0[daemon] }),
            let queued = box.handler.libraryAnswers(status, on: HTTPConnection(raw: connection, loop: box.loop))
        else { return -1 }
        return Int32((queued ? MHD_Result.YES : MHD_Result.NO).rawValue)
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, _, context, _ in
        guard let cls, let context, let raw = context.pointee else { return }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        context.pointee = nil
        box(cls).handler.requestCompleted(state)
    }
}
