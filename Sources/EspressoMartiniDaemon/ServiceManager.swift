import Glibc

/// Tells systemd (`Type=notify`) what the daemon is doing. Outside systemd `NOTIFY_SOCKET` is unset
/// and every call does nothing.
///
/// The protocol is small enough not to need libsystemd (and the compression and crypto libraries it loads):
/// the state is one datagram on the AF_UNIX socket named by `NOTIFY_SOCKET`, as in `sd_notify(3)`.
public enum ServiceManager {
    public static func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public static func reloading() { notify("RELOADING=1") }
    public static func stopping() { notify("STOPPING=1") }

    private static func notify(_ state: String) {
        guard let address = getenv("NOTIFY_SOCKET") else { return }
        send(state, to: String(cString: address))
    }

    /// Sends `state` as one datagram to `address`: a path, or with a leading `@` an abstract socket name.
    /// Failures are ignored, as `sd_notify` callers ignore them: the daemon works the same without systemd.
    static func send(_ state: String, to address: String) {
        guard var socketAddress = unixSocketAddress(address) else { return }
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return }
        defer { close(socket) }
        var bytes = Array(state.utf8)
        withUnsafePointer(to: &socketAddress.address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddressPointer in
                _ = sendto(socket, &bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddressPointer, socketAddress.length)
            }
        }
    }

    /// The `sockaddr_un` for `address` and its exact length: a path counts its terminating NUL; an abstract
    /// name (`@name`, sent as a NUL then `name`) counts only its bytes, since the kernel takes every byte
    /// within the length as part of the name. Nil for anything else (an empty or too long address, `vsock:`).
    static func unixSocketAddress(_ address: String) -> (address: sockaddr_un, length: socklen_t)? {
        var path = Array(address.utf8)
        let isAbstract = path.first == UInt8(ascii: "@")
        guard isAbstract || path.first == UInt8(ascii: "/") else { return nil }
        if isAbstract { path[0] = 0 }
        var socketAddress = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard path.count < capacity || (isAbstract && path.count == capacity) else { return nil }
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: path) }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        return (socketAddress, socklen_t(pathOffset + path.count + (isAbstract ? 0 : 1)))
    }
}
