import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// Nothing accumulates per request: resident memory after tens of thousands of requests is what it
    /// was after the first few thousand (the journal's 1000 entries and the allocator's pools included).
    @Suite("memory over many requests")
    struct MemoryTests {
        static let exchanges: [String: TreeEntry] = [
            "ping/GET/configuration.json": #"{"body": "pong"}"#,
            "items/{id}/GET/configuration.json": #"{"headers": {"X-Item": "yes"}, "body": {"item": true}}"#,
        ]

        /// Sends `count` requests from 4 threads, a third each to a literal route, a `{id}` route and a 404,
        /// on kept-alive connections renewed every 100 requests. Returns the statuses seen, by status.
        static func load(_ client: HTTPClient, count: Int, offset: Int) throws -> [Int: Int] {
            let tally = StatusTally()
            let threads = 4
            let done = DispatchSemaphore(value: 0)
            for thread in 0..<threads {
                Thread {
                    defer { done.signal() }
                    var seen: [Int: Int] = [:]
                    do {
                        var connection: HTTPConnection?
                        for index in stride(from: thread, to: count, by: threads) {
                            if index % 100 < threads || connection == nil {
                                connection?.close()
                                connection = try HTTPConnection(
                                    host: client.host, port: client.port, timeout: client.timeout)
                            }
                            let number = offset + index
                            let target = ["/ping", "/items/\(number)", "/missing/\(number)"][index % 3]
                            try connection!.write(
                                Array("GET \(target) HTTP/1.1\r\nHost: \(client.authority)\r\n\r\n".utf8))
                            seen[try connection!.readResponse(bodiless: false).statusCode, default: 0] += 1
                        }
                        connection?.close()
                    } catch {
                        tally.fail(error)
                    }
                    tally.add(seen)
                }.start()
            }
            for _ in 0..<threads where done.wait(timeout: .now() + 120) != .success {
                throw ServerProcessError(description: "the load did not finish within 120 s")
            }
            return try tally.result()
        }

        @Test("resident memory stays flat over 30 000 requests to a literal route, a {id} route and a 404")
        func memoryStaysFlat() async throws {
            let tree = try TemporaryTree(exchanges: Self.exchanges, configuration: #"{"watch": false}"#)
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (pid, client) = (server.pid, server.client)

            let warmUp = try await BlockingCall.run { try Self.load(client, count: 3000, offset: 0) }
            #expect(warmUp == [200: 2000, 404: 1000])
            let afterWarmUp = try #require(ProcessStatus.residentKiB(pid))
            let statuses = try await BlockingCall.run { try Self.load(client, count: 30_000, offset: 3000) }
            #expect(statuses == [200: 20_000, 404: 10_000])
            let afterLoad = try #require(ProcessStatus.residentKiB(pid))
            let grown = afterLoad - afterWarmUp
            // Sanitizers keep freed memory in quarantine, so the bound only holds for plain builds; the
            // address sanitizer's leak checker covers the instrumented ones when the server stops.
            if !Sanitizer.isActive {
                #expect(
                    grown < 4 * 1024,
                    "the server grew by \(grown) KiB over 30 000 requests (\(afterWarmUp) KiB after the warm-up)")
            }
            #expect(server.stop().exitCode == 0)
        }
    }
}
