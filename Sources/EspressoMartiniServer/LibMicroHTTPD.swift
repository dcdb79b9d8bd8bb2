internal import CMicroHTTPD
import EspressoMartini
import Glibc

// libmicrohttpd behind Swift types: the only file that sees its C API. A daemon calls a
// `RequestHandler` for each request; the handler answers on an `HTTPConnection` with `HTTPResponse`s.

/// One request's connection, as libmicrohttpd hands it to the access handler: valid from the request line
/// to libmicrohttpd's completion notice. libmicrohttpd gives a connection to one thread at a time;
/// `resume` may be called from any thread.
struct HTTPConnection: RequestConnection, @unchecked Sendable {
    fileprivate let raw: OpaquePointer
    /// The loop that drives the connection's daemon; nil under libmicrohttpd's own threads. Not retained:
    /// the daemon keeps its loops as long as it has connections.
    unowned(unsafe) let servingLoop: ServingLoop?

    /// Queues `response` with `status`; false when libmicrohttpd refuses (the connection is then closed).
    func queue(_ response: HTTPResponse, status: UInt32) -> Bool {
        MHD_queue_response(raw, status, response.raw) == .YES
    }

    /// Stops calling the access handler until `resume`; the connection's thread serves others meanwhile.
    func suspend() {
        MHD_suspend_connection(raw)
    }

    /// Any thread.
    func resume() {
        MHD_resume_connection(raw)
        servingLoop?.connectionResumed()
    }

    /// The connection's socket, -1 when libmicrohttpd does not say.
    var socket: Int32 {
        em_connection_fd(raw)
    }

    /// The value of the request header `name` (a C string with its NUL, compared without case), valid while
    /// the request lasts; nil without one.
    func header(named name: UnsafeBufferPointer<CChar>) -> UnsafeBufferPointer<UInt8>? {
        var value: UnsafePointer<CChar>?
        var size = 0
        guard MHD_lookup_connection_value_n(raw, .HEADER_KIND, name.baseAddress, name.count - 1, &value, &size) == .YES, let value else {
            return nil
        }
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: size)
    }

    /// The client's address (`192.0.2.7`, `2001:db8::7`; an IPv4 client of an IPv6 socket as IPv4), nil
    /// when libmicrohttpd does not say.
    var clientAddress: ClientAddress? {
        guard let address = em_connection_client_address(raw) else { return nil }
        return ClientAddress(address)
    }

    /// Calls `body` with the client's address as text, without making a string; false (`body` not called)
    /// when libmicrohttpd does not say.
    func withClientAddressText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard let address = em_connection_client_address(raw) else { return false }
        return ClientAddress.write(address, body) != nil
    }

    /// The request's `Origin` header as a C string libmicrohttpd keeps for the request; nil without one.
    var origin: UnsafePointer<CChar>? {
        MHD_lookup_connection_value(raw, .HEADER_KIND, "Origin")
    }

    /// The request's headers, read where libmicrohttpd keeps them.
    var headers: RequestHeaders {
        RequestHeaders(reading: ConnectionHeaders(connection: raw))
    }

    /// Sends a TCP RST now: with a zero linger, disconnecting the socket (`connect` to `AF_UNSPEC`) aborts
    /// the connection at once, whatever libmicrohttpd does with the descriptor when it closes it next.
    func reset() {
        let socket = em_connection_fd(raw)
        guard socket >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        var unspecified = sockaddr()
        unspecified.sa_family = sa_family_t(AF_UNSPEC)
        _ = connect(socket, &unspecified, socklen_t(MemoryLayout<sockaddr>.size))
    }
}

/// A libmicrohttpd response, freed when the last reference goes. libmicrohttpd counts its own references
/// too: a response queued on connections outlives this object until they have sent it.
final class HTTPResponse: @unchecked Sendable {
    fileprivate let raw: OpaquePointer

    private init?(_ raw: OpaquePointer?, headers: [HTTPHeader]) {
        guard let raw else { return nil }
        self.raw = raw
        for header in headers { add(header) }
    }

    deinit {
        MHD_destroy_response(raw)
    }

    /// A response sending a copy of `bytes`; nil when libmicrohttpd cannot make it (out of memory).
    convenience init?(copying bytes: [UInt8], headers: [HTTPHeader]) {
        let made = bytes.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        self.init(made, headers: headers)
    }

    /// A response sending `buffer`, which it takes over: memory from `malloc`, freed by libmicrohttpd once it
    /// is done with the response (or at once when the response cannot be made).
    convenience init?(takingMalloced buffer: UnsafeMutableRawBufferPointer, headers: [HTTPHeader]) {
        let made = MHD_create_response_from_buffer(buffer.count, buffer.baseAddress, .RESPMEM_MUST_FREE)
        if made == nil { free(buffer.baseAddress) }
        self.init(made, headers: headers)
    }

    /// A response sending `buffer` without a copy, keeping `owner` (which keeps `buffer` valid) alive as
    /// long as libmicrohttpd holds the response: a connection may still be sending it after a reload has
    /// dropped its tree.
    convenience init?(sharing buffer: UnsafeRawBufferPointer, owner: AnyObject, headers: [HTTPHeader]) {
        let retained = Unmanaged.passRetained(owner)
        let made = MHD_create_response_from_buffer_with_free_callback_cls(
            buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), { owner in
                Unmanaged<AnyObject>.fromOpaque(owner!).release()
            }, retained.toOpaque()
        )
        if made == nil { retained.release() }
        self.init(made, headers: headers)
    }

    /// A response sending the file at `path` as it is now (with sendfile); nil when it cannot be opened.
    convenience init?(file path: String, headers: [HTTPHeader]) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, let made = MHD_create_response_from_fd64(UInt64(info.st_size), descriptor) else {
            close(descriptor)
            return nil
        }
        self.init(made, headers: headers)
    }

    /// A response whose body `source` produces as libmicrohttpd asks for it: `size` bytes announced (nil:
    /// unknown, sent chunked), in blocks of at most `blockSize`. The source's `closed()` runs once, when
    /// libmicrohttpd is done with it (or at once when the response cannot be made).
    convenience init?(size: UInt64?, blockSize: Int, source: BodySource, headers: [HTTPHeader]) {
        let context = Unmanaged.passRetained(source)
        let made = MHD_create_response_from_callback(size ?? UInt64.max  /* MHD_SIZE_UNKNOWN */, blockSize, { context, position, buffer, room in
            let source = Unmanaged<BodySource>.fromOpaque(context!).takeUnretainedValue()
            guard let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
            switch source.read(at: position, into: UnsafeMutableRawBufferPointer(start: buffer, count: room)) {
            case .bytes(let count): return count
            // Returning no bytes is allowed with the connection suspended: libmicrohttpd asks again once
            // it is resumed (without the suspension it would spin).
            case .suspended: return 0
            case .endOfBody: return MHD_CONTENT_READER_END_OF_STREAM
            case .broken: return MHD_CONTENT_READER_END_WITH_ERROR
            }
        }, context.toOpaque(), { context in
            let source = Unmanaged<BodySource>.fromOpaque(context!).takeRetainedValue()
            source.closed()
        })
        if made == nil {
            context.release()
            source.closed()
        }
        self.init(made, headers: headers)
    }

    /// libmicrohttpd refuses headers it manages itself (`Content-Length`); the rest always go through.
    func add(_ header: HTTPHeader) {
        _ = MHD_add_response_header(raw, header.name, header.value)
    }

    /// `name` and `value` as C strings (kept by the caller), for headers added to many responses.
    func add(name: UnsafePointer<CChar>, value: UnsafePointer<CChar>) {
        _ = MHD_add_response_header(raw, name, value)
    }

    /// Its headers in order (for tests and checks).
    var headers: [HTTPHeader] {
        final class Found { var headers: [HTTPHeader] = [] }
        let found = Found()
        _ = MHD_get_response_headers(raw, { cls, _, name, value in
            guard let cls, let name else { return .YES }
            let found = Unmanaged<Found>.fromOpaque(cls).takeUnretainedValue()
            found.headers.append(HTTPHeader(name: String(cString: name), value: value.map { String(cString: $0) } ?? ""))
            return .YES
        }, Unmanaged.passUnretained(found).toOpaque())
        return found.headers
    }
}

/// What a callback response's body source gives for one call.
enum BodyRead: Equatable {
    /// This many bytes were written (at least one).
    case bytes(Int)
    /// Nothing yet: the source has suspended the connection, and will resume it when it has more
    /// (`ArrivingBody`); libmicrohttpd then asks again.
    case suspended
    /// The body is complete.
    case endOfBody
    /// The connection is closed now, the body cut short.
    case broken
}

/// Produces a callback response's body (a truncated body, a stream), on the connection's thread.
class BodySource: @unchecked Sendable {
    /// Writes the bytes from `position` on into `buffer` (at most its count).
    func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        .broken
    }

    /// libmicrohttpd is done with the body: sent, cut short, or never sent. Once, on any thread.
    func closed() {}
}

/// What the daemon calls, on its threads, for each request: `requestStarted` once the request line is
/// read (its state is kept until `requestCompleted`), `received` with the headers, then with each piece of
/// body, then once more with an empty body when the request is complete (and again after a `resume`).
protocol RequestHandler: AnyObject, Sendable {
    func requestStarted(uri: UnsafePointer<CChar>?) -> RequestState
    /// False closes the connection without an answer.
    func received(
        _ state: RequestState, on connection: HTTPConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, body: UnsafeRawBufferPointer
    ) -> Bool
    func requestCompleted(_ state: RequestState)
}

/// A libmicrohttpd daemon answering through a `RequestHandler`, with suspend and resume allowed: with
/// libmicrohttpd's own threads (an internal polling thread with epoll and a pool), or as one daemon per
/// `ServingLoop`, each driven by its loop's thread, on the same listening socket.
final class HTTPDaemon: @unchecked Sendable {
    private let daemons: [OpaquePointer]
    private let loops: [ServingLoop]
    /// What libmicrohttpd's callbacks are given as their context: a class of known type, so that a callback
    /// reaches the handler without a dynamic cast (a cast to the protocol cost each call a conformance lookup).
    private final class HandlerBox {
        /// Not retained: the handler (the server) outlives its daemon.
        unowned(unsafe) let handler: any RequestHandler
        /// The loop driving the daemon, for its connections; nil for libmicrohttpd's own threads.
        unowned(unsafe) let loop: ServingLoop?
        init(_ handler: any RequestHandler, loop: ServingLoop?) {
            self.handler = handler
            self.loop = loop
        }
    }
    private let boxes: [HandlerBox]

    /// Starts on `socket` (taken over), with `threads` threads of libmicrohttpd's own, or (`loops` not empty)
    /// one daemon per loop, each started on its loop; `tlsCertificateCallback` (a GnuTLS certificate
    /// retrieval function) serves HTTPS. Nil when libmicrohttpd cannot start.
    init?(
        socket: Int32, ipv6: Bool, threads: Int, connectionTimeout: Int, connectionLimit: Int, handler: RequestHandler,
        tlsCertificateCallback: UnsafeMutableRawPointer?, loops: [ServingLoop] = []
    ) {
        var flags = MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if ipv6 { flags |= MHD_USE_IPv6.rawValue }
        guard !loops.isEmpty else {
            let box = HandlerBox(handler, loop: nil)
            guard let raw = Self.start(
                flags: flags | MHD_USE_INTERNAL_POLLING_THREAD.rawValue, socket: socket, threads: threads, connectionTimeout: connectionTimeout,
                connectionLimit: connectionLimit, box: box, tlsCertificateCallback: tlsCertificateCallback
            ) else { return nil }
            daemons = [raw]
            boxes = [box]
            self.loops = []
            return
        }
        // Each daemon has a descriptor of the socket of its own, which it closes when it stops; a connection
        // goes to the loop that accepts it first. The connection limit is shared out, as libmicrohttpd's pool does.
        var daemons: [OpaquePointer] = []
        var boxes: [HandlerBox] = []
        for loop in loops {
            let box = HandlerBox(handler, loop: loop)
            let descriptor = dup(socket)
            let started = descriptor >= 0 ? Self.start(
                flags: flags, socket: descriptor, threads: 0, connectionTimeout: connectionTimeout,
                connectionLimit: max(1, connectionLimit / loops.count), box: box, tlsCertificateCallback: tlsCertificateCallback
            ) : nil
            guard let raw = started, loop.start(driving: DrivenDaemon(raw: raw)) else {
                if let started { MHD_stop_daemon(started) } else if descriptor >= 0 { close(descriptor) }
                for (loop, raw) in zip(loops, daemons) {
                    loop.stop()
                    MHD_stop_daemon(raw)
                }
                return nil
            }
            daemons.append(raw)
            boxes.append(box)
        }
        close(socket)
        self.daemons = daemons
        self.boxes = boxes
        self.loops = loops
    }

    private static func start(
        flags: UInt32, socket: Int32, threads: Int, connectionTimeout: Int, connectionLimit: Int, box: HandlerBox,
        tlsCertificateCallback: UnsafeMutableRawPointer?
    ) -> OpaquePointer? {
        // Unretained: the daemon keeps its box as long as libmicrohttpd runs.
        em_start_daemon(
            flags, socket, UInt32(threads), UInt32(connectionTimeout), UInt32(connectionLimit), ConnectionMemory.bytes,
            accessHandler, completedHandler, requestStartHandler, Unmanaged.passUnretained(box).toOpaque(), tlsCertificateCallback
        )
    }

    /// Stops accepting, and closes the listening socket.
    func quiesce() {
        guard !loops.isEmpty else {
            let listener = MHD_quiesce_daemon(daemons[0])
            if listener >= 0 { close(listener) }
            return
        }
        // On each loop's thread, which is the only one that may touch its daemon's epoll set.
        for (loop, raw) in zip(loops, daemons) {
            let listener = loop.performAndWait { [raw = UInt(bitPattern: raw)] in
                MHD_quiesce_daemon(OpaquePointer(bitPattern: raw)!)
            }
            if listener >= 0 { close(listener) }
        }
    }

    /// Stops every thread; no connection may be suspended then.
    func stop() {
        for loop in loops { loop.stop() }
        for raw in daemons { MHD_stop_daemon(raw) }
    }

    /// Whether this libmicrohttpd serves HTTPS with a certificate callback.
    static var servesTLS: Bool {
        MHD_is_feature_supported(.FEATURE_TLS) == .YES && MHD_is_feature_supported(.FEATURE_HTTPS_CERT_CALLBACK) == .YES
    }

    private static func box(_ cls: UnsafeMutableRawPointer) -> HandlerBox {
        Unmanaged<HandlerBox>.fromOpaque(cls).takeUnretainedValue()
    }

    // The C callbacks, on libmicrohttpd's threads or a loop's: `cls` is the handler's box, `con_cls` holds a
    // retained `RequestState` per request, from the request line to the completion notice.

    private static let requestStartHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, _ in
        guard let cls else { return nil }
        return Unmanaged.passRetained(box(cls).handler.requestStarted(uri: uri)).toOpaque()
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
        guard let cls, let connection, let url, let method, let uploadSize, let raw = context?.pointee else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        let body = UnsafeRawBufferPointer(start: upload, count: upload == nil ? 0 : uploadSize.pointee)
        uploadSize.pointee = 0  // consumed: bodies are never buffered whole
        let box = box(cls)
        return box.handler.received(state, on: HTTPConnection(raw: connection, servingLoop: box.loop), url: url, method: method, body: body) ? .YES : .NO
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, _, context, _ in
        guard let cls, let context, let raw = context.pointee else { return }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        context.pointee = nil
        box(cls).handler.requestCompleted(state)
    }
}

/// A libmicrohttpd daemon without threads of its own, which a `ServingLoop` drives from its thread.
struct DrivenDaemon: @unchecked Sendable {
    fileprivate let raw: OpaquePointer

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

/// A request's headers read where libmicrohttpd keeps them, on its connection: valid until libmicrohttpd
/// reports the request completed, so a `Request` holding this must not outlive its request.
private struct ConnectionHeaders: RequestHeaderReader, @unchecked Sendable {
    /// Where one header's name and value lie in libmicrohttpd's memory.
    private struct Field {
        let name: UnsafePointer<CChar>
        let nameSize: Int
        let value: UnsafePointer<CChar>?
        let valueSize: Int
    }

    /// Room for `capacity` fields, filled by libmicrohttpd's iteration.
    private struct Gathering {
        let fields: UnsafeMutablePointer<Field>
        let capacity: Int
        var count = 0
    }

    let connection: OpaquePointer

    /// Packs the headers as libmicrohttpd walks them: one pass, each appended by the C callback.
    func pack(into packed: inout [UInt8]) {
        withUnsafeMutablePointer(to: &packed) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, name, nameSize, value, valueSize in
                guard let cls, let name else { return .YES }
                let packed = cls.assumingMemoryBound(to: [UInt8].self)
                let nameBytes = UnsafeRawBufferPointer(start: name, count: nameSize)
                let valueBytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
                RequestHeaders.pack(nameBytes, valueBytes, into: &packed.pointee)
                return .YES
            }, pointer)
        }
    }

    /// Gathers where the headers lie into memory on the stack, then calls `body` with each: no closure
    /// crosses into C, so reading the headers allocates nothing.
    func forEachHeader(_ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Void) {
        let total = Int(MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil))
        guard total > 0 else { return }
        withUnsafeTemporaryAllocation(of: Field.self, capacity: total) { fields in
            var gathering = Gathering(fields: fields.baseAddress!, capacity: total)
            withUnsafeMutablePointer(to: &gathering) { pointer in
                _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, name, nameSize, value, valueSize in
                    guard let gathering = cls?.assumingMemoryBound(to: Gathering.self), let name,
                          gathering.pointee.count < gathering.pointee.capacity else { return .NO }
                    (gathering.pointee.fields + gathering.pointee.count).initialize(
                        to: Field(name: name, nameSize: nameSize, value: value, valueSize: value == nil ? 0 : valueSize)
                    )
                    gathering.pointee.count += 1
                    return .YES
                }, pointer)
            }
            for field in UnsafeBufferPointer(start: fields.baseAddress, count: gathering.count) {
                let name = UnsafeRawPointer(field.name).assumingMemoryBound(to: UInt8.self)
                let value = field.value.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
                body(UnsafeBufferPointer(start: name, count: field.nameSize), UnsafeBufferPointer(start: value, count: field.valueSize))
            }
        }
    }
}
