import EspressoMartini

/// The connection a request came on, as the server reads the request from it and the sender answers on
/// it: libmicrohttpd's `HTTPConnection`, or a test's fake that records what it was given.
protocol RequestConnection: Sendable {
    /// The request's headers, read where the connection keeps them (valid while the request lasts).
    var headers: RequestHeaders { get }
    /// The value of the request header `name` (a C string with its NUL, compared without case), valid while
    /// the request lasts; nil without one.
    func header(named name: UnsafeBufferPointer<CChar>) -> UnsafeBufferPointer<UInt8>?
    /// The client's address; nil when not known.
    var clientAddress: ClientAddress? { get }
    /// Calls `body` with the client's address as text (what `clientAddress` says, without making it);
    /// false, without calling it, when the address is not known.
    func withClientAddressText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool
    /// The request's `Origin` header as a C string valid while the request lasts; nil without one.
    var origin: UnsafePointer<CChar>? { get }
    /// Queues `response` with `status`; false when it is refused (the connection is then closed).
    func queue(_ response: HTTPResponse, status: UInt32) -> Bool
    /// Stops handling the request until `resume`, without holding a thread.
    func suspend()
    /// Any thread.
    func resume()
    /// Resets the TCP connection now (RST).
    func reset()
    /// The connection's socket, to notice a client that leaves while its answer waits; -1 when there is
    /// none to watch.
    var socket: Int32 { get }
    /// The loop whose thread drives the connection: its timers, its hang-up watches, its lane.
    var loop: any EventLoop { get }
    /// What the request takes of the connection's memory once its headers are in (`ConnectionMemory`).
    var requestMemory: Int { get }
}

extension RequestConnection {
    func withClientAddressText(_ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard var text = clientAddress?.text else { return false }
        text.withUTF8(body)
        return true
    }
}
