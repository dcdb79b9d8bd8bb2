import Foundation
import Testing

/// doc/matching.md: sequences and call counters.
@Suite("sequences and call counters")
struct CallCounterTests {
    static let threeResponses: TreeEntry = """
        [
          {"status_code": 201, "body": "first"},
          {"status_code": 202, "body": "second"},
          {"status_code": 203, "body": "third"}
        ]
        """

    @Test("a sequence plays in order and the last response repeats")
    func sequenceInOrder() async throws {
        let tree = try TemporaryTree(exchanges: ["job/GET/configuration.json": Self.threeResponses])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        var seen: [String] = []
        var statuses: [Int] = []
        for _ in 0..<6 {
            let response = try await server.client.get("/job")
            seen.append(response.text)
            statuses.append(response.statusCode)
        }
        #expect(seen == ["first", "second", "third", "third", "third", "third"])
        #expect(statuses == [201, 202, 203, 203, 203, 203])
    }

    @Test("100 parallel requests to a fresh 3-response exchange: exactly 1, 1 and 98")
    func parallelRequestsEachIndexOnce() async throws {
        let tree = try TemporaryTree(exchanges: ["job/GET/configuration.json": Self.threeResponses])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let batch = try await ParallelRequests.start(100, client: server.client, target: "/job")
        let results = try await batch.results()
        var counts: [String: Int] = [:]
        for result in results {
            let response = try result.get()
            counts[response.text, default: 0] += 1
        }
        #expect(counts == ["first": 1, "second": 1, "third": 98])
        // The statuses travel with their bodies.
        for response in results.compactMap(\.response) {
            let expected = ["first": 201, "second": 202, "third": 203][response.text]
            #expect(response.statusCode == expected)
        }
        let outcome = server.stop()
        #expect(outcome.exitCode == 0, "\(outcome)")
    }

    @Test("HEAD answered from a GET exchange counts a call")
    func headCounts() async throws {
        let tree = try TemporaryTree(exchanges: ["job/GET/configuration.json": Self.threeResponses])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let head = try await server.client.head("/job")
        #expect(head.statusCode == 201)
        #expect(head.body.isEmpty)
        let get = try await server.client.get("/job")
        #expect(get.statusCode == 202)
        #expect(get.text == "second")
        let head2 = try await server.client.head("/job")
        #expect(head2.statusCode == 203)
        #expect(head2.contentLength == "third".utf8.count)
    }

    @Test("the counter belongs to the exchange, not to the concrete path")
    func counterPerExchange() async throws {
        let tree = try TemporaryTree(exchanges: [
            "users/{id}/GET/configuration.json": Self.threeResponses,
            "files/**/GET/configuration.json": Self.threeResponses,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/users/1").text == "first")
        #expect(try await server.client.get("/users/2").text == "second")
        #expect(try await server.client.get("/users/1?x=y").text == "third")
        #expect(try await server.client.get("/files/a").text == "first")
        #expect(try await server.client.get("/files/b/c/d").text == "second")
    }

    @Test("each exchange has its own counter; 404 and 405 answers move none")
    func separateCounters() async throws {
        let tree = try TemporaryTree(exchanges: [
            "thing/GET/configuration.json": Self.threeResponses,
            "thing/POST/configuration.json": Self.threeResponses,
            "other/GET/configuration.json": Self.threeResponses,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/thing").text == "first")
        #expect(try await server.client.send("DELETE", "/thing").statusCode == 405)
        #expect(try await server.client.get("/thing/extra").statusCode == 404)
        #expect(try await server.client.send("POST", "/thing").text == "first")
        #expect(try await server.client.get("/other").text == "first")
        #expect(try await server.client.get("/thing").text == "second")
        #expect(try await server.client.send("POST", "/thing").text == "second")
    }

    @Test("counters start at 0 again in a new server process")
    func freshProcessFreshCounters() async throws {
        let tree = try TemporaryTree(exchanges: ["job/GET/configuration.json": Self.threeResponses])
        defer { tree.remove() }
        for _ in 0..<2 {
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            #expect(try await server.client.get("/job").text == "first")
            #expect(try await server.client.get("/job").text == "second")
        }
    }
}
