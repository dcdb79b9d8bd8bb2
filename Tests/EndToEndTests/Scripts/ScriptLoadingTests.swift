import Foundation
import Testing

/// doc/scripts.md at load: a script that does not compile, or defines no `response`, stops the start (exit 78) with
/// its file, line and column; only `delay` may stand beside a script; script_timeout is read.
@Suite("script loading")
struct ScriptLoadingTests {
    @Test(
        "load errors name the script's place",
        arguments: [
            (
                [
                    "a/GET/configuration.json": #"{"javascript_file": "a.js"}"#,
                    "a/GET/a.js": "function response(request) {\n  return {;\n}\n",
                ],
                "network-exchanges/a/GET/a.js:2:1: error: SyntaxError: Unexpected token ';'"
            ),
            (
                ["a/GET/configuration.json": #"{"javascript_file": "a.js"}"#, "a/GET/a.js": "function answer() {}\n"],
                "network-exchanges/a/GET/a.js: error: the script defines no function response(request, cache)"
            ),
            (
                ["a/GET/configuration.json": "{\n  \"javascript\": \"function response( {\"\n}"],
                "network-exchanges/a/GET/configuration.json:2:17: error: the script in 'javascript': SyntaxError"
            ),
            (
                [
                    "a/GET/configuration.json": #"{"javascript_file": "a.js"}"#,
                    "a/GET/a.js": "throw new Error('at load');\nfunction response() {}\n",
                ],
                "network-exchanges/a/GET/a.js:1:16: error: Error: at load"
            ),
            (
                ["a/GET/configuration.json": #"{"javascript_file": "missing.js"}"#],
                "network-exchanges/a/GET/configuration.json:1:21: error: 'javascript_file' 'missing.js' does not exist"
            ),
            (
                ["a/GET/configuration.json": #"{"javascript_file": "a.txt"}"#],
                "network-exchanges/a/GET/configuration.json:1:21: error: 'javascript_file' must name a .js file"
            ),
            (
                ["a/GET/configuration.json": #"{"javascript": "function response() {}", "status_code": 201}"#],
                "network-exchanges/a/GET/configuration.json:1:42: error: 'status_code' cannot stand beside 'javascript'"
            ),
            (
                ["a/GET/configuration.json": #"{"javascript": "function response() {}", "javascript_file": "a.js"}"#],
                "network-exchanges/a/GET/configuration.json:1:42: error: 'javascript_file' and 'javascript' cannot both be given"
            ),
            (
                [
                    "a/GET/configuration.json": #"{"javascript_file": "a.js"}"#,
                    "a/GET/a.js": "while (true) {}\nfunction response() {}\n",
                ],
                "network-exchanges/a/GET/a.js: error: the script ran longer than script_timeout"
            ),
        ] as [([String: String], String)])
    func loadError(_ files: [String: String], _ expected: String) async throws {
        let tree = try TemporaryTree(
            exchanges: files.mapValues { .text($0) }, configuration: #"{"script_timeout": 0.3}"#)
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["run", "--port", "0"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardErrorLines.contains { $0.hasPrefix(expected) }, "\(outcome)")
    }

    @Test("a reload with a changed script serves the new script")
    func reload() async throws {
        let tree = try TemporaryTree(exchanges: [
            "a/GET/configuration.json": #"{"javascript_file": "a.js"}"#,
            "a/GET/a.js": "function response() { return Response.ok('one'); }",
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/a").text == "one")
        try tree.write(.text("function response() { return Response.ok('two'); }"), at: "network-exchanges/a/GET/a.js")
        #expect(try await server.client.send("POST", "/__espressomartini/reload").statusCode == 200)
        #expect(try await server.client.get("/a").text == "two")
    }
}
