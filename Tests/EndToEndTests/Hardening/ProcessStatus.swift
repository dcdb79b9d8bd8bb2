import Foundation

/// A process as /proc shows it from outside: resident memory, threads, open sockets.
enum ProcessStatus {
    /// `VmRSS` in KiB.
    static func residentKiB(_ pid: Int32) -> Int? { field("VmRSS", pid) }

    /// `VmHWM` in KiB: the most resident memory the process has had.
    static func peakResidentKiB(_ pid: Int32) -> Int? { field("VmHWM", pid) }

    /// `Threads`: every thread of the process.
    static func threads(_ pid: Int32) -> Int? { field("Threads", pid) }

    /// Open descriptors that are sockets: the listening socket plus one per connection the server has accepted.
    static func openSockets(_ pid: Int32) -> Int? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd") else { return nil }
        return names.filter { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)"))?.hasPrefix(
                "socket:") == true
        }.count
    }

    /// Polls (bounded) until `predicate` holds for the value read; returns the last value read.
    static func wait(
        timeout: Duration, _ read: () -> Int?, until predicate: (Int) -> Bool
    ) -> Int? {
        let deadline = ContinuousClock.now + timeout
        var value = read()
        while ContinuousClock.now < deadline {
            if let value, predicate(value) { return value }
            usleep(20_000)
            value = read()
        }
        return value
    }

    private static func field(_ name: String, _ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
        return line?.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
    }
}
