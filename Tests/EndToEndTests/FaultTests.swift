import Foundation
import Glibc
import Testing

/// doc/faults-and-sessions.md faults, seen through raw sockets: a reset, a connection closed without a byte, a body cut short.
@Suite("faults")
struct FaultTests {
    static let body = String(repeating: "0123456789", count: 100)  // 1000 bytes

    static let exchanges: [String: TreeEntry] = [
        "reset/GET/configuration.json": #"{"fault": "connection_reset", "body": "never"}"#,
        "empty/GET/configuration.json": #"{"fault": "empty_response"}"#,
        "truncated/GET/configuration.json": .text(
            #"{"fault": "truncated_body", "status_code": 201, "headers": {"X-Cut": "yes"}, "body": "\#(body)"}"#),
        "truncated-file/GET/configuration.json": #"{"fault": "truncated_body", "response_file": "big.txt"}"#,
        "truncated-file/GET/big.txt": .text(String(repeating: "abcdefghij", count: 10_000)),
        "slow-reset/GET/configuration.json": #"[{"fault": "connection_reset", "delay": 0.5}, {"body": "fine"}]"#,
        "fine/GET/configuration.json": #"{"body": "fine"}"#,
    ]

    static func request(_ path: String) -> String {
        "GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n"
    }

    @Test("connection_reset: the read fails with ECONNRESET, no byte of an answer")
    func connectionReset() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let socket = try RawSocket(port: server.port)
        try socket.send(Self.request("/reset"))
        let (bytes, end) = socket.receiveAll()
        #expect(bytes.isEmpty, "\(String(decoding: bytes, as: UTF8.self))")
        #expect(end == .failed(errno: ECONNRESET))
        #expect(try await server.client.get("/fine").text == "fine", "the server answers on")
    }

    @Test("empty_response: the stream ends without a byte")
    func emptyResponse() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let socket = try RawSocket(port: server.port)
        try socket.send(Self.request("/empty"))
        #expect(socket.receive() == .endOfStream)
    }

    @Test(
        "truncated_body: status and headers with the full Content-Length, then half the body, then the end",
        arguments: [
            ("/truncated", 201, 1000),
            ("/truncated-file", 200, 100_000),
        ])
    func truncatedBody(_ path: String, _ status: Int, _ length: Int) async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let socket = try RawSocket(port: server.port)
        try socket.send(Self.request(path))
        let (bytes, end) = socket.receiveAll()
        #expect(end == .endOfStream)
        let text = String(decoding: bytes, as: UTF8.self)
        let head = try #require(text.range(of: "\r\n\r\n"), "no end of headers in \(text.prefix(200))")
        let headers = text[..<head.lowerBound].lowercased()
        #expect(headers.hasPrefix("http/1.1 \(status) "), "\(headers)")
        #expect(
            headers.contains("content-length: \(length)\r\n") || headers.hasSuffix("content-length: \(length)"),
            "\(headers)")
        let bodyBytes = bytes.count - text[..<head.upperBound].utf8.count
        #expect(bodyBytes == length / 2, "\(bodyBytes) body bytes of \(length)")
    }

    @Test("a fault comes after the delay, counts as a call, and is journaled and logged with status 0")
    func countedJournaledLogged() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let started = ContinuousClock.now
        let socket = try RawSocket(port: server.port)
        try socket.send(Self.request("/slow-reset"))
        #expect(socket.receiveAll().end == .failed(errno: ECONNRESET))
        #expect(ContinuousClock.now - started >= .milliseconds(500), "reset before the delay")
        #expect(try await server.client.get("/slow-reset").text == "fine", "the fault counted as the first call")
        let journal = try await server.client.get("/__espressomartini/requests").text
        #expect(
            journal.contains(#""route":"\/slow-reset","variant":null,"response":0,"status":0"#)
                || journal.contains(#""route":"/slow-reset","variant":null,"response":0,"status":0"#), "\(journal)")
        let deadline = ContinuousClock.now + .seconds(5)
        while !server.standardError.contains("GET /slow-reset 0 GET /slow-reset 1/2"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(server.standardError.contains("GET /slow-reset 0 GET /slow-reset 1/2"), "\(server.standardError)")
    }
}
