import Foundation

/// The context switches (voluntary and not) of every thread of a process, from `/proc/PID/task`.
enum ThreadSwitches {
    struct Thread: Equatable {
        let name: String
        let switches: Int
    }

    /// Thread id → its name and switches so far.
    static func read(pid: Int32) -> [Int: Thread] {
        let tasks = "/proc/\(pid)/task"
        var threads: [Int: Thread] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let id = Int(entry),
                let status = try? String(contentsOfFile: "\(tasks)/\(entry)/status", encoding: .utf8),
                let name = try? String(contentsOfFile: "\(tasks)/\(entry)/comm", encoding: .utf8)
            else { continue }
            let switches = status.split(separator: "\n")
                .filter { $0.hasPrefix("voluntary_ctxt_switches:") || $0.hasPrefix("nonvoluntary_ctxt_switches:") }
                .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                .reduce(0, +)
            threads[id] = Thread(name: name.trimmingCharacters(in: .whitespacesAndNewlines), switches: switches)
        }
        return threads
    }

    /// Reads every 500 ms until two readings in a row are equal (bounded: 10 s), and returns the last one.
    static func waitUntilSettled(pid: Int32) async throws -> [Int: Thread] {
        var last = read(pid: pid)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
            let current = read(pid: pid)
            if current == last { break }
            last = current
        }
        return last
    }

    /// `name (TID): +N` for every thread that switched, started (`started`) or ended (`ended`) between the two readings.
    static func increases(from before: [Int: Thread], to after: [Int: Thread]) -> [String] {
        var woken: [String] = []
        for id in Set(before.keys).union(after.keys).sorted() {
            switch (before[id], after[id]) {
            case let (old?, new?) where new.switches > old.switches:
                woken.append("\(new.name) (\(id)): +\(new.switches - old.switches)")
            case let (nil, new?):
                woken.append("\(new.name) (\(id)): started")
            case let (old?, nil):
                woken.append("\(old.name) (\(id)): ended")
            default:
                break
            }
        }
        return woken
    }
}
