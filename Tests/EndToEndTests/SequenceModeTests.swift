import Foundation
import Testing

/// doc/faults-and-sessions.md: sequence modes on the wire, exact under 100 parallel requests.
@Suite("sequence modes")
struct SequenceModeTests {
    static func threeResponses(_ mode: String) -> TreeEntry {
        .text(
            """
            {"sequence": "\(mode)", "responses": [
              {"status_code": 201, "body": "first"},
              {"status_code": 202, "body": "second"},
              {"status_code": 203, "body": "third"}
            ]}
            """)
    }

    @Test(
        "loop: after the last response the first again; once: 410 naming the route",
        arguments: [
            ("loop", [201, 202, 203, 201, 202, 203, 201]),
            ("once", [201, 202, 203, 410, 410]),
            ("repeat_last", [201, 202, 203, 203, 203]),
        ])
    func modesInOrder(_ mode: String, _ statuses: [Int]) async throws {
        let tree = try TemporaryTree(exchanges: ["job/GET/configuration.json": Self.threeResponses(mode)])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        var seen: [Int] = []
        for _ in statuses {
            let response = try await server.client.get("/job")
            seen.append(response.statusCode)
            if response.statusCode == 410 {
                #expect(response.header("Content-Type") == "application/json")
                #expect(response.text.contains(#""route":"/job""#), "\(response.text)")
            }
        }
        #expect(seen == statuses)
    }

    @Test(
        "100 parallel requests: loop hands out 34, 33 and 33; once 1, 1, 1 and 97 × 410",
        arguments: [
            ("loop", ["first": 34, "second": 33, "third": 33]),
            ("once", ["first": 1, "second": 1, "third": 1, "gone": 97]),
        ])
    func parallelRequests(_ mode: String, _ expected: [String: Int]) async throws {
        let tree = try TemporaryTree(exchanges: ["job/GET/configuration.json": Self.threeResponses(mode)])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let batch = try await ParallelRequests.start(100, client: server.client, target: "/job")
        var counts: [String: Int] = [:]
        for result in try await batch.results() {
            let response = try result.get()
            counts[response.statusCode == 410 ? "gone" : response.text, default: 0] += 1
        }
        #expect(counts == expected)
        let exchanges = try await server.client.get("/__espressomartini/exchanges").text
        #expect(exchanges.contains(#""calls":100"#), "\(exchanges)")
    }
}
