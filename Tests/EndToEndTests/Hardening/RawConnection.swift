import Glibc

/// A TCP connection to the server over IPv4 loopback on which the test decides every byte, when to stop
/// sending (`shutdown(SHUT_WR)`, a half-close), and watches for the server closing it. Every wait is bounded.
final class RawConnection: @unchecked Sendable {
    private var descriptor: Int32 = -1
    /// When the connection was established, for measuring when the server closed it.
    let opened: ContinuousClock.Instant
    /// Everything the server sent so far.
    private(set) var received: [UInt8] = []

    init(port: Int, timeout: Double = 5) throws {
        opened = .now
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw HTTPClientError(.connect, "socket()", errorNumber: errno) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var result: Int32
        repeat {
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let number = errno
            Glibc.close(socketDescriptor)
            throw HTTPClientError(.connect, "cannot connect to 127.0.0.1:\(port)", errorNumber: number)
        }
        descriptor = socketDescriptor
    }

    deinit { close() }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Sends every byte; false when the server no longer takes them (it closed or reset the connection).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// No more bytes from the client; the server still reads what was sent, then sees the end.
    func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Reads what is there without waiting; true once the server has closed (end of stream or reset).
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
                continue
            }
            if count == 0 { return true }
            if errno == EINTR { continue }
            return errno != EAGAIN && errno != EWOULDBLOCK  // a reset counts as closed
        }
    }

    /// Waits (bounded) until the server closes the connection, keeping what it sends; the time from
    /// `opened` to the close, or nil when it is still open after `timeout`.
    func waitUntilClosed(timeout: Duration) -> Duration? {
        Self.waitUntilClosed([self], timeout: timeout)[0]
    }

    /// Waits (bounded) until the server has closed every connection; per connection the time from its
    /// `opened` to the moment its close was seen (to within 20 ms), or nil if it was still open at the end.
    static func waitUntilClosed(_ connections: [RawConnection], timeout: Duration) -> [Duration?] {
        var closedAfter = [Duration?](repeating: nil, count: connections.count)
        let deadline = ContinuousClock.now + timeout
        while true {
            let open = connections.indices.filter { closedAfter[$0] == nil }
            if open.isEmpty { break }
            var descriptors = open.map { pollfd(fd: connections[$0].descriptor, events: Int16(POLLIN), revents: 0) }
            _ = poll(&descriptors, nfds_t(descriptors.count), 20)
            let now = ContinuousClock.now
            for (slot, index) in open.enumerated() where descriptors[slot].revents != 0 {
                if connections[index].drain() { closedAfter[index] = now - connections[index].opened }
            }
            if now >= deadline { break }
        }
        return closedAfter
    }
}
