import Glibc

/// A listening socket held by the test process, to make a port busy (or to learn whether an address
/// such as `::1` exists on this machine).
final class OccupiedPort: @unchecked Sendable {
    let host: String
    let port: Int
    private var descriptor: Int32

    /// Binds `host` (numeric) on `port` (0: a port the system picks), and listens.
    init(host: String = "127.0.0.1", port wanted: Int = 0) throws {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(wanted), &hints, &results) == 0, let info = results else {
            throw HTTPClientError(.address, "cannot resolve \(host)")
        }
        defer { freeaddrinfo(results) }
        let socketDescriptor = socket(
            info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socketDescriptor >= 0 else { throw HTTPClientError(.connect, "socket()", errorNumber: errno) }
        guard bind(socketDescriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0,
            listen(socketDescriptor, 16) == 0
        else {
            let number = errno
            Glibc.close(socketDescriptor)
            throw HTTPClientError(.connect, "cannot bind \(host)", errorNumber: number)
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        let isIPv6 = Int32(storage.ss_family) == AF_INET6
        port = withUnsafePointer(to: &storage) { pointer in
            isIPv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
        }
        self.host = host
        descriptor = socketDescriptor
    }

    deinit { close() }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// `count` consecutive ports on 127.0.0.1, each held now (below the ephemeral range, so that the system
    /// hands none of them out meanwhile); nil when none such was found in a few tries.
    static func consecutive(_ count: Int) -> [OccupiedPort]? {
        for _ in 0..<50 {
            let base = Int.random(in: 20_000...30_000)
            let held = (base..<base + count).compactMap { try? OccupiedPort(port: $0) }
            if held.count == count { return held }
        }
        return nil
    }

    /// A port on 127.0.0.1 that nothing listens on now (one the system handed out, let go at once).
    static func closedPort() throws -> Int {
        let held = try OccupiedPort()
        held.close()
        return held.port
    }

    /// Whether this machine can listen on `host` (for instance `::1`).
    static func canListen(on host: String) -> Bool {
        guard let probe = try? OccupiedPort(host: host) else { return false }
        probe.close()
        return true
    }
}
