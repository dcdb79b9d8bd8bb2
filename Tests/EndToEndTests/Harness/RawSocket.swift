import Glibc

/// A TCP connection through the C socket calls alone, so that a test sees exactly what the network does
/// (a reset, an end of stream, bytes cut short), which an HTTP client could hide. Every read is bounded
/// by a receive timeout.
final class RawSocket {
    /// How one `recv` ended.
    enum Read: Equatable {
        case bytes([UInt8])
        case endOfStream
        case failed(errno: Int32)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let descriptor: Int32

    init(port: Int, timeoutSeconds: Int = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure(description: "connect: \(reason)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
    }

    /// One `recv` of up to 64 KiB.
    func receive() -> Read {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return .bytes(Array(buffer[..<count])) }
        return count == 0 ? .endOfStream : .failed(errno: errno)
    }

    /// Every byte until the end of the stream (or a failure, returned after the bytes before it).
    func receiveAll() -> (bytes: [UInt8], end: Read) {
        var bytes: [UInt8] = []
        while true {
            switch receive() {
            case .bytes(let more): bytes += more
            case let end: return (bytes, end)
            }
        }
    }
}
