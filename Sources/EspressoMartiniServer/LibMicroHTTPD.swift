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

/// A libmicrohttpd daemon: an internal polling thread with epoll and a thread pool, answering through a
/// `RequestHandler`, with suspend and resume allowed.
final class HTTPDaemon: @unchecked Sendable {
    private let raw: OpaquePointer
    /// What libmicrohttpd's callbacks are given as their context: a class of known type, so that a callback
    /// reaches the handler without a dynamic cast (a cast to the protocol cost each call a conformance lookup).
    private final class HandlerBox {
        /// Not retained: the handler (the server) outlives its daemon.
        unowned(unsafe) let handler: any RequestHandler
        init(_ handler: any RequestHandler) { self.handler = handler }
    }
    private let box: HandlerBox

    /// Starts on `socket` (taken over), with `threads` threads; `tlsCertificateCallback` (a GnuTLS
    /// certificate retrieval function) serves HTTPS. Nil when libmicrohttpd cannot start.
    init?(
        socket: Int32, ipv6: Bool, threads: Int, connectionTimeout: Int, connectionLimit: Int, handler: RequestHandler,
        tlsCertificateCallback: UnsafeMutableRawPointer?
    ) {
        var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if ipv6 { flags |= MHD_USE_IPv6.rawValue }
        // Unretained: the daemon keeps its box as long as libmicrohttpd runs.
        box = HandlerBox(handler)
        let context = Unmanaged.passUnretained(box).toOpaque()
        guard let raw = em_start_daemon(
            flags, socket, UInt32(threads), UInt32(connectionTimeout), UInt32(connectionLimit), ConnectionMemory.bytes,
            Self.accessHandler, Self.completedHandler, Self.requestStartHandler, context, tlsCertificateCallback
        ) else { return nil }
        self.raw = raw
    }

    /// Stops accepting; returns the listening socket, which the caller closes (nil when there is none).
    func quiesce() -> Int32? {
        let listener = MHD_quiesce_daemon(raw)
        return listener >= 0 ? listener : nil
    }

    /// Stops every thread; no connection may be suspended then.
    func stop() {
        MHD_stop_daemon(raw)
    }

    /// Whether this libmicrohttpd serves HTTPS with a certificate callback.
    static var servesTLS: Bool {
        MHD_is_feature_supported(.FEATURE_TLS) == .YES && MHD_is_feature_supported(.FEATURE_HTTPS_CERT_CALLBACK) == .YES
    }

    private static func handler(_ cls: UnsafeMutableRawPointer) -> any RequestHandler {
        Unmanaged<HandlerBox>.fromOpaque(cls).takeUnretainedValue().handler
    }

    // The C callbacks, on libmicrohttpd's threads: `cls` is the handler, `con_cls` holds a retained
    // `RequestState` per request, from the request line to the completion notice.

    private static let requestStartHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, uri, _ in
        guard let cls else { return nil }
        return Unmanaged.passRetained(handler(cls).requestStarted(uri: uri)).toOpaque()
    }

    private static let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, context in
        guard let cls, let connection, let url, let method, let uploadSize, let raw = context?.pointee else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeUnretainedValue()
        let body = UnsafeRawBufferPointer(start: upload, count: upload == nil ? 0 : uploadSize.pointee)
        uploadSize.pointee = 0  // consumed: bodies are never buffered whole
        return handler(cls).received(state, on: HTTPConnection(raw: connection), url: url, method: method, body: body) ? .YES : .NO
    }

    private static let completedHandler: MHD_RequestCompletedCallback = { cls, _, context, _ in
        guard let cls, let context, let raw = context.pointee else { return }
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        context.pointee = nil
        handler(cls).requestCompleted(state)
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
