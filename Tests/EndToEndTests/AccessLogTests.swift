import Foundation
import Testing

/// doc/matching.md access log: one INFO line per request on standard error; doc/command-line.md logs never on standard output.
@Suite("access log")
struct AccessLogTests {
    static let exchanges: [String: TreeEntry] = [
        "items/{id}/GET/configuration.json": #"[{"body": "1"}, {"status_code": 201, "body": "2"}, {"body": "3"}]"#
    ]

    @Test("one INFO line per request: method, path, status, route and position")
    func accessLogLines() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/items/7").statusCode == 200)
        #expect(try await server.client.get("/items/8").statusCode == 201)
        #expect(try await server.client.get("/missing/thing").statusCode == 404)

        let second = await server.waitForStandardErrorLine { $0.contains("/items/8") }
        let line = try #require(second, "no access log line for /items/8:\n\(server.standardError)")
        #expect(line.contains("INFO"))
        #expect(line.contains("GET"))
        #expect(line.contains(" 201"))
        #expect(line.contains("/items/{id}"), "no route in: \(line)")
        #expect(line.contains("2/3"), "no position in: \(line)")
        #expect(
            line.range(of: #"\d+(\.\d+)?\s*(ms|s|µs)"#, options: .regularExpression) != nil, "no time taken in: \(line)"
        )

        let first = await server.waitForStandardErrorLine { $0.contains("/items/7") }
        #expect(first?.contains("1/3") == true, "\(first ?? "none")")

        let notFound = await server.waitForStandardErrorLine { $0.contains("/missing/thing") }
        #expect(notFound?.contains("404") == true, "\(notFound ?? "none")")
        #expect(notFound?.contains("INFO") == true)

        let outcome = server.stop()
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutputLines.count == 1, "logs on standard output:\n\(outcome.standardOutput)")
        let accessLines = outcome.standardErrorLines.filter { $0.contains("/items/") || $0.contains("/missing/") }
        #expect(accessLines.count == 3, "\(accessLines)")
    }

    @Test("each line is whole and exact: timestamp, level, request, status, route, position, time; a long path too")
    func accessLogLineShape() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let longID = String(repeating: "x", count: 3000)
        #expect(try await server.client.get("/items/7").statusCode == 200)
        #expect(try await server.client.get("/items/\(longID)").statusCode == 201)
        #expect(try await server.client.get("/missing").statusCode == 404)
        _ = await server.waitForStandardErrorLine { $0.contains("/missing") }
        let lines = server.stop().standardErrorLines.filter { $0.contains(" INFO GET ") }
        let time = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z INFO "#
        let expected = [
            time + #"GET /items/7 200 GET /items/\{id\} 1/3 \d+\.\d{2}ms$"#,
            time + "GET /items/\(longID) 201 " + #"GET /items/\{id\} 2/3 \d+\.\d{2}ms$"#,
            time + #"GET /missing 404 - \d+\.\d{2}ms$"#,
        ]
        #expect(lines.count == 3, "\(lines)")
        for (line, pattern) in zip(lines, expected) {
            #expect(
                line.range(of: pattern, options: .regularExpression) != nil,
                "\(line.prefix(200)) does not match \(pattern.prefix(120))")
        }
    }

    @Test("--log-level ERROR silences the access log")
    func errorLevelSilences() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--log-level", "ERROR"])
        defer { server.stop() }
        #expect(try await server.client.get("/items/7").statusCode == 200)
        #expect(try await server.client.get("/missing").statusCode == 404)
        let outcome = server.stop()
        #expect(outcome.exitCode == 0)
        #expect(!outcome.standardError.contains("/items/7"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("/missing"), "\(outcome.standardError)")
        #expect(!outcome.standardError.contains("INFO"))
    }
}
