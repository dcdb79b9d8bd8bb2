import EspressoMartini
import Foundation
import Synchronization
import Testing

/// doc/reloading.md under load: clients keep hammering while the tree is reloaded over and over; no answer may fail
/// or be wrong, and every answer comes from a complete tree.
@Suite("reload under load")
struct ReloadUnderLoadTests {
    static let routes = 50
    static let clients = 8
    static let reloads = 30

    @Test("8 clients on 50 routes while the tree reloads 30 times: zero failed or wrong answers")
    func hammerWhileReloading() async throws {
        var exchanges: [String: TreeEntry] = [:]
        for route in 0..<Self.routes {
            exchanges["r/\(route)/GET/configuration.json"] = .text(#"{"body": "route \#(route) v0"}"#)
        }
        let tree = try TemporaryTree(exchanges: exchanges, configuration: #"{"log_level": "ERROR"}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let stop = Atomic<Bool>(false)
        let answered = Atomic<Int>(0)
        let problems = Locked<[String]>([])  // a pthread lock: the thread sanitizer sees it
        let client = server.client
        let workers = (0..<Self.clients).map { worker in
            Thread {
                var request = worker
                while !stop.load(ordering: .relaxed) {
                    let route = request % Self.routes
                    request += 7
                    do {
                        let response = try client.sendBlocking("GET", "/r/\(route)")
                        let body = response.text
                        // Any version is fine; the route must be the one asked for, and the answer whole.
                        if response.statusCode != 200 || !body.hasPrefix("route \(route) v") {
                            problems.withLock { $0.append("/r/\(route): \(response.statusCode) \(body)") }
                        }
                    } catch {
                        problems.withLock { $0.append("/r/\(route): \(error)") }
                    }
                    answered.add(1, ordering: .relaxed)
                    // A breath between requests: eight clients flat out took both cores under the thread
                    // sanitizer, and the reloads (and every other test) waited minutes behind them.
                    usleep(5_000)
                }
            }
        }
        workers.forEach { $0.start() }
        defer { stop.store(true, ordering: .relaxed) }

        for version in 1...Self.reloads {
            let route = version % Self.routes
            try tree.write(
                .text(#"{"body": "route \#(route) v\#(version)"}"#),
                at: "network-exchanges/r/\(route)/GET/configuration.json")
            let reload = try await client.send("POST", "/__espressomartini/reload")
            #expect(reload.statusCode == 200)
            #expect(try await client.get("/r/\(route)").text == "route \(route) v\(version)")
            try await Task.sleep(for: .milliseconds(30))
        }
        stop.store(true, ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(300))

        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0.prefix(10) })")
        #expect(answered.load(ordering: .relaxed) > Self.reloads * Self.clients)
        #expect(server.stop().exitCode == 0)
    }
}
