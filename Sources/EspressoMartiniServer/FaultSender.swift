import CMicroHTTPD
import EspressoMartini
import Glibc

/// Breaks a connection on purpose (§13), from the access handler on the connection's thread. Each
/// returns what the access handler returns; `.NO` makes libmicrohttpd close the connection without
/// sending anything more.
enum FaultSender {
    static func fail(_ fault: ResponseFault, _ answer: ExchangeAnswer, on connection: OpaquePointer) -> MHD_Result {
        switch fault {
        case .connectionReset:
            reset(connection)
            return .NO
        case .emptyResponse:
            return .NO
        case .truncatedBody:
            return truncated(answer, on: connection)
        }
    }

    /// Sends a TCP RST now: with a zero linger, disconnecting the socket (`connect` to `AF_UNSPEC`) aborts
    /// the connection at once, whatever libmicrohttpd does with the descriptor when it closes it next.
    private static func reset(_ connection: OpaquePointer) {
        let socket = em_connection_fd(connection)
        guard socket >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        var unspecified = sockaddr()
        unspecified.sa_family = sa_family_t(AF_UNSPEC)
        _ = connect(socket, &unspecified, socklen_t(MemoryLayout<sockaddr>.size))
    }

    /// The status and headers with the full body's `Content-Length`, then the first half of the body,
    /// then the connection closed: a response whose content reader ends with an error halfway.
    private static func truncated(_ answer: ExchangeAnswer, on connection: OpaquePointer) -> MHD_Result {
        let response = answer.response
        let tree = answer.tree
        let bytes: [UInt8]
        if case .file(let name, let resolved, _) = response.body {
            let path = tree.tree.path(ofFile: name, at: resolved, in: answer.exchange)
            guard let file = tree.bytes(ofFileIn: answer.slot, at: path) else { return .NO }
            bytes = Array(file.buffer)
        } else {
            bytes = response.body.inlineBytes
        }
        let body = Unmanaged.passRetained(HalfBody(bytes))
        guard let made = MHD_create_response_from_callback(UInt64(bytes.count), 16 * 1024, { cls, position, buffer, room in
            let body = Unmanaged<HalfBody>.fromOpaque(cls!).takeUnretainedValue()
            let start = Int(position)
            guard start < body.sent, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
            let count = min(room, body.sent - start)
            body.bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + start, byteCount: count)
            }
            return count
        }, body.toOpaque(), { cls in
            Unmanaged<HalfBody>.fromOpaque(cls!).release()
        }) else {
            body.release()
            return .NO
        }
        for header in response.effectiveHeaders(global: tree.globalHeaders) {
            _ = MHD_add_response_header(made, header.name, header.value)
        }
        defer { MHD_destroy_response(made) }
        return MHD_queue_response(connection, answer.statusCode, made)
    }
}

/// A body of which only the first half is ever sent.
private final class HalfBody: @unchecked Sendable {
    let bytes: [UInt8]
    /// How many bytes go out before the connection is closed.
    let sent: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        sent = bytes.count / 2
    }
}
