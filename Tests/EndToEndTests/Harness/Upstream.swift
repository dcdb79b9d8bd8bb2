import Foundation
import Glibc
import Testing

/// The tests' own real API (`Tests/EndToEndTests/Upstream/upstream.py`, see its routes): a Python HTTP/1.1
/// server on 127.0.0.1 only, started for one test and killed when it ends. With `tls`, it serves HTTPS with
/// that certificate and key.
final class Upstream: @unchecked Sendable {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Upstream/upstream.py").path

    let port: Int
    let isHTTPS: Bool
    private let process: Process
    private let output: URL
    /// The upstream's standard input: it exits when this pipe ends, even if the test process is killed.
    private let lifeline = Pipe()

    var url: String { (isHTTPS ? "https" : "http") + "://127.0.0.1:\(port)" }
    var client: HTTPClient { HTTPClient(host: "127.0.0.1", port: port) }

    init(tls: (certificate: String, key: String)? = nil) async throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-upstream-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process = Process()
        process.executableURL = URL(
            fileURLWithPath: try #require(ExternalTool.path(of: "python3"), "python3 is needed for the upstream server")
        )
        process.arguments = [Self.script, "0"] + (tls.map { [$0.certificate, $0.key] } ?? [])
        process.standardInput = lifeline
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        isHTTPS = tls != nil
        try process.run()
        // Python starts in a fraction of a second; a machine busy with other test runs can take far longer.
        let deadline = ContinuousClock.now + .seconds(60)
        var found = Self.port(announcedIn: output)
        while found == nil, ContinuousClock.now < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
            found = Self.port(announcedIn: output)
        }
        guard let found = found ?? Self.port(announcedIn: output) else {
            let text = String(decoding: FileManager.default.contents(atPath: output.path) ?? Data(), as: UTF8.self)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw ServerProcessError(description: "the upstream server did not start: \(text)")
        }
        port = found
    }

    /// The port of the line `upstream listening on PORT` once the whole line is in `output`.
    private static func port(announcedIn output: URL) -> Int? {
        let text = String(decoding: FileManager.default.contents(atPath: output.path) ?? Data(), as: UTF8.self)
        guard
            let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: {
                $0.hasPrefix("upstream listening on ")
            })
        else { return nil }
        return Int(line.dropFirst("upstream listening on ".count))
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: output)
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// How many times each path was asked for, and how many TCP connections the upstream accepted.
    func hits() async throws -> (paths: [String: Int], connections: Int) {
        let response = try await client.get("/__upstream/hits")
        let object = try #require(try response.json() as? [String: Any])
        return (object["hits"] as? [String: Int] ?? [:], object["connections"] as? Int ?? -1)
    }
}
