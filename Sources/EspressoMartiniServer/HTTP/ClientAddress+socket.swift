import EspressoMartini
import Glibc

extension ClientAddress {
    /// The address in `socket` (an IPv4 or IPv6 socket address); nil for any other family. An IPv4-mapped
    /// IPv6 address (`::ffff:127.0.0.1`, an IPv4 client of a `::` socket) is read as the IPv4 address.
    init?(_ socket: UnsafePointer<sockaddr>) {
        var text = ""
        guard let isLoopback = Self.write(socket, { text = String(decoding: $0, as: UTF8.self) }) else { return nil }
        self.init(text: text, isLoopback: isLoopback)
    }

    /// Calls `body` with the address in `socket` as text, on the stack (IPv4 written without `inet_ntop`,
    /// which formats with `printf`); returns whether it is a loopback address, nil for a family other than
    /// IPv4 and IPv6 (`body` is then not called).
    @discardableResult
    static func write(_ socket: UnsafePointer<sockaddr>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool? {
        switch Int32(socket.pointee.sa_family) {
        case AF_INET:
            let address = UnsafeRawPointer(socket).load(as: sockaddr_in.self).sin_addr
            return writeIPv4(withUnsafeBytes(of: address.s_addr) { ($0[0], $0[1], $0[2], $0[3]) }, body)
        case AF_INET6:
            var address = UnsafeRawPointer(socket).load(as: sockaddr_in6.self).sin6_addr
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return writeIPv4((bytes[12], bytes[13], bytes[14], bytes[15]), body)
            }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
            text.withUnsafeBufferPointer { text in
                text.withMemoryRebound(to: UInt8.self) {
                    body(UnsafeBufferPointer(rebasing: $0[..<strlen(text.baseAddress!)]))
                }
            }
            return bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        default:
            return nil
        }
    }

    /// `a.b.c.d`, the address's bytes in network order.
    private static func writeIPv4(
        _ address: (UInt8, UInt8, UInt8, UInt8), _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { text in
            var count = 0
            func put(_ part: UInt8, dot: Bool) {
                if dot {
                    text[count] = UInt8(ascii: ".")
                    count += 1
                }
                if part >= 100 {
                    text[count] = UInt8(ascii: "0") + part / 100
                    count += 1
                }
                if part >= 10 {
                    text[count] = UInt8(ascii: "0") + part / 10 % 10
                    count += 1
                }
                text[count] = UInt8(ascii: "0") + part % 10
                count += 1
            }
            put(address.0, dot: false)
            put(address.1, dot: true)
            put(address.2, dot: true)
            put(address.3, dot: true)
            body(UnsafeBufferPointer(rebasing: text[..<count]))
        }
        return address.0 == 127
    }
}
