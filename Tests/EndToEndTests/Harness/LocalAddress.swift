import Glibc

/// This machine's own addresses.
enum LocalAddress {
    /// An IPv4 address of an interface other than loopback (`192.0.2.2`): a client that connects to it from
    /// this machine comes from that address, not from a loopback one. Nil when the machine has none.
    static func nonLoopbackIPv4() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var entry = list
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            guard let address = current.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET,
                current.pointee.ifa_flags & UInt32(IFF_LOOPBACK) == 0, current.pointee.ifa_flags & UInt32(IFF_UP) != 0
            else { continue }
            var ipv4 = UnsafeRawPointer(address).load(as: sockaddr_in.self).sin_addr
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &ipv4, &text, socklen_t(text.count))
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
