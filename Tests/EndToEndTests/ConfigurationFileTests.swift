import Foundation
import Testing

/// doc/server-configuration.md: keys of the server configuration file that the other tests do not cover.
@Suite("configuration file keys")
struct ConfigurationFileTests {
    @Test("environment is accepted without a word; logLevel is accepted for log_level")
    func compatibilityKeys() async throws {
        let tree = try TemporaryTree(
            exchanges: ["ping/GET/": .folder],
            configuration: #"{"environment": "development", "logLevel": "Error"}"#
        )
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/ping").statusCode == 200)
        let outcome = server.stop()
        #expect(outcome.exitCode == 0)
        #expect(!outcome.standardError.contains("warning"), "\(outcome.standardError)")
        #expect(
            !outcome.standardError.contains("/ping"),
            "logLevel Error did not silence the access log:\n\(outcome.standardError)")
    }

    @Test("an unknown key is a warning naming it and the closest known key; the server still starts")
    func unknownKeyWarning() async throws {
        let tree = try TemporaryTree(
            exchanges: ["ping/GET/": .folder], configuration: "{\n  \"hostnme\": \"127.0.0.1\"\n}\n")
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let warning = server.standardError.split(separator: "\n").first { $0.contains("warning:") }
        #expect(warning?.hasPrefix("configuration.json:2:3: warning: ") == true, "\(server.standardError)")
        #expect(warning?.contains("hostnme") == true)
        #expect(warning?.contains("hostname") == true)
        #expect(try await server.client.get("/ping").statusCode == 200)
    }

    @Test("a configuration that is not a JSON object, or not JSON, is an error with a position: 78")
    func notAnObject() async throws {
        for (text, line) in [("[1, 2]", 1), ("{\n  \"port\": 0,\n  \"delay\": ,\n}", 3)] {
            let tree = try TemporaryTree(exchanges: ["ping/GET/": .folder], configuration: text)
            defer { tree.remove() }
            let outcome = try await ServerProcess.runToCompletion(["run", "--port", "0"], in: tree.url)
            #expect(outcome.exitCode == 78, "\(outcome)")
            #expect(outcome.standardOutput.isEmpty)
            #expect(
                outcome.standardErrorLines.contains {
                    $0.hasPrefix("configuration.json:\(line):") && $0.contains(": error: ")
                }, "\(outcome)")
        }
    }
}
