import EspressoMartini
import Glibc

extension ClientAddress {
    /// The address in `socket` (an IPv4 or IPv6 socket address); nil for any other family. An IPv4-mapped
    /// IPv6 address (`::ffff:127.0.0.1`, an IPv4 client of a `::` socket) is read as the IPv4 address.
    init?(_ socket: UnsafePointer<sockaddr>) {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(socket.pointee.sa_family) {
        case AF_INET:
            var address = UnsafeRawPointer(socket).load(as: sockaddr_in.self).sin_addr
            inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
            self.init(text: Self.string(text), isLoopback: UInt32(bigEndian: address.s_addr) >> 24 == 127)
        case AF_INET6:
            var address = UnsafeRawPointer(socket).load(as: sockaddr_in6.self).sin6_addr
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                var mapped = in_addr(s_addr: bytes[12..<16].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })
                inet_ntop(AF_INET, &mapped, &text, socklen_t(text.count))
                self.init(text: Self.string(text), isLoopback: bytes[12] == 127)
            } else {
                inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                self.init(text: Self.string(text), isLoopback: bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1)
            }
        default:
            return nil
        }
    }

    /// What `inet_ntop` wrote, up to its terminating zero.
    private static func string(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
