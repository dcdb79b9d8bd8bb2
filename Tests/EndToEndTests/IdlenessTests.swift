import Foundation
import Glibc
import Testing

/// An idle daemon does not wake: no thread of the server (the log writer, libmicrohttpd's workers, the
/// tree watcher, the signal wait) is scheduled while no request comes.
@Suite("idleness")
struct IdlenessTests {
    /// How long the server is watched once idle.
    static let idleSpan: Duration = .seconds(10)

    /// The request made before the idle span: a plain one, and a delayed one (whose timer thread must
    /// then sleep without a timeout).
    static let requests = ["/ping", "/slow"]

    @Test(
        "after one request, 10 s without requests bring no context switch in any thread",
        .enabled(if: !Sanitizer.isActive, "a sanitizer's runtime runs threads of its own that wake periodically"),
        arguments: requests
    )
    func noWakeUps(target: String) async throws {
        // Four folders at the top: the loader walks them in parallel (`TreeLoader.parallelWalkWidth`).
        let tree = try TemporaryTree(exchanges: [
            "ping/GET/": .folder, "users/GET/": .folder, "users/{id}/GET/": .folder, "orders/POST/": .folder,
            "slow/GET/configuration.json": .text(#"{"delay": 0.05}"#),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get(target).statusCode == 200)
        // The access-log line is written: the log writer has been woken at least once.
        #expect(await server.waitForStandardErrorLine { $0.contains("GET \(target) 200") } != nil)

        let settled = try await ThreadSwitches.waitUntilSettled(pid: server.pid)
        try await Task.sleep(for: Self.idleSpan)
        let after = ThreadSwitches.read(pid: server.pid)
        #expect(!after.isEmpty, "no thread of process \(server.pid) could be read")
        let woken = ThreadSwitches.increases(from: settled, to: after)
        let threads = after.sorted { $0.key < $1.key }.map { "\($0.value.name) (\($0.key))" }
        let report: Comment =
            "threads that woke in \(Self.idleSpan) of idleness: \(woken.joined(separator: ", ")); all: \(threads.joined(separator: ", "))"
        #expect(woken.isEmpty, report)
    }
}
