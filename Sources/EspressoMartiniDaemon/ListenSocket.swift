import Glibc

/// The listening socket, bound here rather than by libmicrohttpd so that a failure says why
/// ("Address already in use") and `::` can take IPv4 too.
public struct ListenSocket: Sendable {
    public let descriptor: Int32
    public let isIPv6: Bool
    /// `127.0.0.1:8080` or `[::1]:8080`, with the real port when 0 was asked.
    public let address: String

    public struct BindError: Error, CustomStringConvertible {
        public let description: String
        /// The port is taken (`EADDRINUSE`): another of a range may be free.
        var inUse = false
    }

    /// Binds the first port of `ports` that is free (tried in order); when every one is in use, the error
    /// names the range. Any other failure (an address that is not this machine's) ends the search at once.
    public static func firstFree(hostname: String, ports: ClosedRange<Int>) throws(BindError) -> ListenSocket {
        for port in ports {
            do {
                return try ListenSocket(hostname: hostname, port: port)
            } catch {
                guard error.inUse else { throw error }
            }
        }
        throw BindError(
            description:
                "cannot listen on \(hostname) in the port range \(ports.lowerBound)-\(ports.upperBound): every port of it is in use"
        )
    }

    public init(hostname: String, port: Int) throws(BindError) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let requested = Self.format(host: hostname, port: port)
        let status = getaddrinfo(hostname, String(port), &hints, &results)
        guard status == 0, let info = results else {
            throw BindError(description: "cannot listen on \(requested): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(results) }

        let family = info.pointee.ai_family
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw BindError(description: "cannot listen on \(requested): \(String(cString: strerror(errno)))")
        }
        var on: Int32 = 1
        var off: Int32 = 0
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if family == AF_INET6 {
            // `::` serves IPv4 clients too.
            setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
        }
        guard bind(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0, listen(descriptor, 1024) == 0 else {
            let code = errno
            close(descriptor)
            throw BindError(
                description: "cannot listen on \(requested): \(String(cString: strerror(code)))",
                inUse: code == EADDRINUSE)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)

        self.descriptor = descriptor
        self.isIPv6 = family == AF_INET6
        self.address = Self.format(host: hostname, port: Self.boundPort(descriptor) ?? port)
    }

    private static func boundPort(_ descriptor: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        guard ok else { return nil }
        let isIPv6 = Int32(storage.ss_family) == AF_INET6
        return withUnsafePointer(to: &storage) { pointer in
            if isIPv6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }

    static func format(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
