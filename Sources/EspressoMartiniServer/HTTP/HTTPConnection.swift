internal import CMicroHTTPD
internal import CMicroHTTPDAnswers
import EspressoMartini
import Glibc

/// One request's connection, as libmicrohttpd hands it to the access handler: valid from the request line
/// to libmicrohttpd's completion notice. Its loop's thread drives it; `resume` may be called from any
/// thread.
struct HTTPConnection: RequestConnection, @unchecked Sendable {
    let raw: OpaquePointer
    /// The loop that drives the connection's daemon. Not retained: the daemon keeps its loops as long as it
    /// has connections.
    unowned(unsafe) let servingLoop: ServingLoop

    init(raw: OpaquePointer, loop: ServingLoop) {
        self.raw = raw
        servingLoop = loop
    }

    var loop: any EventLoop { servingLoop }

    /// Queues `response` with `status`; false when libmicrohttpd refuses (the connection is then closed).
    /// Through `em_queue_response`: the name `MHD_queue_response` is where the library's own errors go.
    func queue(_ response: HTTPResponse, status: UInt32) -> Bool {
        em_queue_response(raw, status, response.raw) == .YES
    }

    /// Whether all the request's headers are in (libmicrohttpd knows their size then).
    var headersComplete: Bool {
        em_request_header_size(raw) > 0
    }

    /// The size of the request's line and headers, once they are in.
    var requestHeadSize: Int {
        em_request_header_size(raw)
    }

    /// What the request takes of the connection's memory once its headers are in (`ConnectionMemory`).
    var requestMemory: Int {
        em_request_memory(raw)
    }

    /// Writes `bytes` on the connection past libmicrohttpd (through TLS for HTTPS), without waiting: for an
    /// answer that does not fit in the connection's memory, after which the connection is closed. False when
    /// not all of them could be written at once.
    func sendDirectly(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            let sent =
                em_connection_tls_session(raw).map { TLSRecords.send(buffer, on: $0) }
                ?? em_connection_send_plain(raw, buffer.baseAddress, buffer.count)
            return sent == buffer.count
        }
    }

    /// Stops calling the access handler until `resume`; the loop serves other connections meanwhile.
    func suspend() {
        MHD_suspend_connection(raw)
    }

    /// Any thread.
    func resume() {
        MHD_resume_connection(raw)
        servingLoop.connectionResumed()
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
        guard MHD_lookup_connection_value_n(raw, .HEADER_KIND, name.baseAddress, name.count - 1, &value, &size) == .YES,
            let value
        else {
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
