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
        let half: HalfBody
        if case .file(let name, let resolved, _) = response.body {
            let path = tree.tree.path(ofFile: name, at: resolved, in: answer.exchange)
            guard let file = tree.bytes(ofFileIn: answer.slot, at: path) else { return .NO }
            half = HalfBody(file: file)
        } else {
            half = HalfBody(inline: response.body.inlineBytes)
        }
        let body = Unmanaged.passRetained(half)
        guard let made = MHD_create_response_from_callback(UInt64(half.count), 16 * 1024, { cls, position, buffer, room in
            let body = Unmanaged<HalfBody>.fromOpaque(cls!).takeUnretainedValue()
            let start = Int(position)
            guard start < body.sent, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
            let count = min(room, body.sent - start)
            body.copy(from: start, count: count, to: UnsafeMutableRawPointer(buffer))
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

/// A body of which only the first half (rounded down) is ever sent: a file's bytes, shared, or an inline body.
private final class HalfBody: @unchecked Sendable {
    private let file: FileBytes?
    private let inline: [UInt8]
    let count: Int
    /// How many bytes go out before the connection is closed.
    let sent: Int

    init(file: FileBytes) {
        self.file = file
        inline = []
        count = file.count
        sent = count / 2
    }

    init(inline: [UInt8]) {
        file = nil
        self.inline = inline
        count = inline.count
        sent = count / 2
    }

    func copy(from start: Int, count: Int, to destination: UnsafeMutableRawPointer) {
        if let file {
            destination.copyMemory(from: file.buffer.baseAddress! + start, byteCount: count)
        } else {
            inline.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + start, byteCount: count) }
        }
    }
}
