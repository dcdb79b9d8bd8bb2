@testable import EspressoMartiniServer
import EspressoMartini
import Foundation

/// A connection that records what the sender and the server do with it: the responses queued (the very
/// objects, and their status), suspensions and resumptions, a reset. Its request headers are given.
final class FakeConnection: RequestConnection, @unchecked Sendable {
    struct Queued {
        let response: HTTPResponse
        let status: UInt32
    }

    private let lock = NSLock()
    private var _queued: [Queued] = []
    private var _suspensions = 0
    private var _resumptions = 0
    private var _resets = 0
    private let requestHeaders: [HTTPHeader]
    /// The header values' bytes, kept for the request's life as libmicrohttpd keeps them.
    private let values: [UnsafeMutableBufferPointer<UInt8>]
    private let originString: UnsafeMutablePointer<CChar>?

    /// The loop the connection is driven by: the test thread's, unless a test gives its own.
    let testLoop: TestLoop
    var loop: any EventLoop { testLoop }

    /// `socket`: a socket to watch for the client's leaving (a test's own); -1 for none.
    init(headers: [HTTPHeader] = [], socket: Int32 = -1, loop: TestLoop = TestLoop()) {
        self.socket = socket
        testLoop = loop
        requestHeaders = headers
        values = headers.map { header in
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: header.value.utf8.count)
            _ = bytes.initialize(from: header.value.utf8)
            return bytes
        }
        originString = headers.first { $0.name.lowercased() == "origin" }.map { strdup($0.value) }
    }

    deinit {
        free(originString)
        values.forEach { $0.deallocate() }
    }

    var queued: [Queued] { lock.withLock { _queued } }
    var suspensions: Int { lock.withLock { _suspensions } }
    var resumptions: Int { lock.withLock { _resumptions } }
    var resets: Int { lock.withLock { _resets } }

    var headers: RequestHeaders { RequestHeaders(requestHeaders) }

    func header(named name: UnsafeBufferPointer<CChar>) -> UnsafeBufferPointer<UInt8>? {
        let wanted = String(cString: name.baseAddress!).lowercased()
        guard let index = requestHeaders.firstIndex(where: { $0.name.lowercased() == wanted }) else { return nil }
        return UnsafeBufferPointer(values[index])
    }

    var origin: UnsafePointer<CChar>? { originString.map { UnsafePointer($0) } }

    var clientAddress: ClientAddress? { ClientAddress(text: "127.0.0.1", isLoopback: true) }

    func queue(_ response: HTTPResponse, status: UInt32) -> Bool {
        lock.withLock { _queued.append(Queued(response: response, status: status)) }
        return true
    }

    /// The client leaves: libmicrohttpd lets go of the responses queued, and so of the bodies they read
    /// from, which hold this connection.
    func close() { lock.withLock { _queued.removeAll() } }

    func suspend() { lock.withLock { _suspensions += 1 } }
    func resume() { lock.withLock { _resumptions += 1 } }
    func reset() { lock.withLock { _resets += 1 } }
    let socket: Int32
    /// A small request's share of its connection's memory.
    var requestMemory: Int { 512 }

    /// Waits, up to `timeout` seconds, until `condition` holds, turning the connection's loop meanwhile (on
    /// its thread) so that its timers and hang-up watches go on; whether it did.
    func wait(timeout: Double = 5, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            if testLoop.inEventLoop { testLoop.turn() } else { usleep(1000) }
        }
        return true
    }
}
