import Foundation
import Glibc

/// A datagram socket standing in for systemd's notification socket: the server under test is given its
/// address in `NOTIFY_SOCKET` and reports `READY=1`, `RELOADING=1`, `STOPPING=1` to it.
final class NotifySocket: @unchecked Sendable {
    /// What `NOTIFY_SOCKET` holds: a path, or `@name` for a socket in the abstract namespace.
    let address: String
    private let descriptor: Int32
    private let path: String?

    init(abstract: Bool) throws {
        let name = "espressomartini-notify-\(UUID().uuidString)"
        path = abstract ? nil : URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(name).path
        address = path ?? "@" + name
        // An abstract name starts with a NUL byte and is as long as the length says, without a terminator.
        let nameBytes = abstract ? [0] + Array(name.utf8) : Array(path!.utf8) + [0]
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: nameBytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + nameBytes.count)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard descriptor >= 0, bound == 0 else {
            let number = errno
            close()
            throw HTTPClientError(.connect, "cannot bind the notification socket \(address)", errorNumber: number)
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The environment that points the server at this socket.
    var environment: [String: String] { ["NOTIFY_SOCKET": address] }

    /// Waits (at most 10 s per datagram) for a datagram with the line `line`, such as `READY=1`, and returns
    /// that datagram; nil if none came.
    func waitFor(_ line: String) async throws -> String? {
        try await BlockingCall.run { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { return nil }
                let datagram = String(decoding: buffer[..<count], as: UTF8.self)
                if datagram.split(separator: "\n").contains(Substring(line)) { return datagram }
            }
        }
    }

    func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        if let path { unlink(path) }
    }
}
