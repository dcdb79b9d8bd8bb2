import Glibc
import Testing

@testable import EspressoMartiniDaemon

/// The `NOTIFY_SOCKET` address forms of sd_notify(3), and their exact lengths: the kernel reads an abstract
/// name as every byte within the length, so one byte too many names another socket.
@Suite("service manager notification address")
struct ServiceManagerTests {
    static let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!

    private func pathBytes(_ address: sockaddr_un, count: Int) -> [UInt8] {
        withUnsafeBytes(of: address.sun_path) { Array($0.prefix(count)) }
    }

    @Test("a path counts its terminating NUL")
    func path() throws {
        let (address, length) = try #require(ServiceManager.unixSocketAddress("/run/systemd/notify"))
        #expect(Int32(address.sun_family) == AF_UNIX)
        #expect(Int(length) == Self.pathOffset + "/run/systemd/notify".utf8.count + 1)
        #expect(pathBytes(address, count: 20) == Array("/run/systemd/notify".utf8) + [0])
    }

    @Test("an abstract name starts with a NUL instead of '@' and counts no terminator")
    func abstract() throws {
        let (address, length) = try #require(ServiceManager.unixSocketAddress("@systemd/notify"))
        #expect(Int(length) == Self.pathOffset + "@systemd/notify".utf8.count)
        #expect(pathBytes(address, count: 15) == [0] + Array("systemd/notify".utf8))
    }

    @Test("the longest addresses that fit: a path needs room for its NUL, an abstract name does not")
    func longest() throws {
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        let longestPath = "/" + String(repeating: "p", count: capacity - 2)
        #expect(ServiceManager.unixSocketAddress(longestPath) != nil)
        #expect(ServiceManager.unixSocketAddress(longestPath + "p") == nil)
        let longestAbstract = "@" + String(repeating: "a", count: capacity - 1)
        #expect(ServiceManager.unixSocketAddress(longestAbstract).map { Int($0.length) } == Self.pathOffset + capacity)
        #expect(ServiceManager.unixSocketAddress(longestAbstract + "a") == nil)
    }

    @Test("anything else is ignored", arguments: ["", "relative/notify", "vsock:2:1234"])
    func ignored(address: String) {
        #expect(ServiceManager.unixSocketAddress(address) == nil)
    }
}
