import Glibc

/// One blocking TCP connection over loopback (IPv4 or IPv6) with send and receive timeouts, so that
/// no exchange with a broken server can hang a test.
final class HTTPConnection: @unchecked Sendable {
    private var descriptor: Int32 = -1
    /// Bytes received past the end of the last response read with `readResponse`: the start of the next.
    private var pending: [UInt8] = []

    /// Connects to a numeric address (`127.0.0.1`, `::1`). `connect` is bounded by `SO_SNDTIMEO`.
    init(host: String, port: Int, timeout: Double) throws {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let info = results else {
            throw HTTPClientError(.address, "cannot resolve \(host):\(port): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(results) }
        let socketDescriptor = socket(
            info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw HTTPClientError(.connect, "socket()", errorNumber: errno) }
        descriptor = socketDescriptor
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var result: Int32
        repeat {
            result = connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen)
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let number = errno
            close()
            throw HTTPClientError(.connect, "cannot connect to \(host):\(port)", errorNumber: number)
        }
    }

    deinit { close() }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Sends every byte (or throws).
    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                let number = errno
                if number == EINTR { continue }
                if number == EAGAIN || number == EWOULDBLOCK {
                    throw HTTPClientError(.timeout, "sending timed out after \(sent) of \(bytes.count) bytes")
                }
                throw HTTPClientError(
                    .send, "sending failed after \(sent) of \(bytes.count) bytes", errorNumber: number)
            }
            sent += count
        }
    }

    /// Reads exactly one response on a kept-alive connection: the header block, then `Content-Length`
    /// body bytes (none when `bodiless`, for HEAD).
    func readResponse(bodiless: Bool) throws -> HTTPResponse {
        var received = pending
        pending = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let separator = Array("\r\n\r\n".utf8)
        while true {
            if let end = received.firstRange(of: separator) {
                let head = try HTTPResponse(raw: Array(received[..<end.upperBound]))
                let length = bodiless ? 0 : head.contentLength ?? 0
                if received.count - end.upperBound >= length {
                    pending = Array(received[(end.upperBound + length)...])
                    return try HTTPResponse.sequence(
                        from: Array(received[..<(end.upperBound + length)]), bodiless: bodiless ? [0] : [])[0]
                }
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                throw HTTPClientError(
                    .receive, "the server closed the connection after \(received.count) bytes of a response")
            } else if errno != EINTR {
                let number = errno
                if number == EAGAIN || number == EWOULDBLOCK {
                    throw HTTPClientError(
                        .timeout, "no complete response within the timeout; got \(received.count) bytes")
                }
                throw HTTPClientError(.receive, "receiving failed after \(received.count) bytes", errorNumber: number)
            }
        }
    }

    /// Reads until at least `count` bytes have come (or the server closes, or the timeout throws).
    func readAtLeast(_ count: Int) throws -> [UInt8] {
        var received = pending
        pending = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.count < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got > 0 {
                received.append(contentsOf: buffer[0..<got])
            } else if got == 0 {
                return received
            } else if errno != EINTR {
                let number = errno
                if number == EAGAIN || number == EWOULDBLOCK {
                    throw HTTPClientError(.timeout, "only \(received.count) of \(count) bytes within the timeout")
                }
                throw HTTPClientError(.receive, "receiving failed after \(received.count) bytes", errorNumber: number)
            }
        }
        return received
    }

    /// Reads until the server closes the connection. A timeout throws, unless `partialOnTimeout`,
    /// which returns what came (for garbage probes, where the server may say nothing).
    func readToEnd(partialOnTimeout: Bool = false) throws -> [UInt8] {
        var received = pending
        pending = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return received
            } else {
                let number = errno
                if number == EINTR { continue }
                if number == EAGAIN || number == EWOULDBLOCK {
                    if partialOnTimeout { return received }
                    throw HTTPClientError(
                        .timeout,
                        "no end of response within the timeout; got \(received.count) bytes: \(String(decoding: received.prefix(300), as: UTF8.self))"
                    )
                }
                if number == ECONNRESET, partialOnTimeout || !received.isEmpty { return received }
                throw HTTPClientError(.receive, "receiving failed after \(received.count) bytes", errorNumber: number)
            }
        }
    }
}
