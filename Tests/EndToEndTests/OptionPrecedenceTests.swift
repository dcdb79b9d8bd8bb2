import Foundation
import Testing

/// doc/server-configuration.md, doc/command-line.md: flags beat the configuration file, which beats the defaults; the last of a repeated flag wins;
/// relative paths resolve against the configuration file's folder (file) or the current folder (flags).
@Suite("option precedence and paths")
struct OptionPrecedenceTests {
    static func body(_ body: String) -> TreeEntry {
        .text(#"{"body": "\#(body)"}"#)
    }

    @Test("a flag given twice: the last one wins")
    func lastFlagWins() async throws {
        let tree = try TemporaryTree(exchanges: ["where/GET/configuration.json": Self.body("tree")])
        defer { tree.remove() }
        let server = try await ServerProcess.start(
            [
                "run", "--port", "0",
                "--hostname", "256.1.1.1", "--hostname", "127.0.0.1",
                "--requests-folder", "missing", "--requests-folder", "network-exchanges",
                "--log-level", "ERROR", "--log-level", "INFO",
                "--delay", "30", "--delay", "0",
            ],
            in: tree.url
        )
        defer { server.stop() }
        #expect(server.host == "127.0.0.1")
        let answer = try await server.client.timed("GET", "/where")
        #expect(answer.elapsed < .seconds(5), "--delay 30 won over the later --delay 0")
        let response = try answer.get()
        #expect(response.statusCode == 200)
        #expect(response.text == "tree")
        let logged = await server.waitForStandardErrorLine { $0.contains("INFO") && $0.contains("/where") }
        #expect(logged != nil, "no INFO access log line:\n\(server.standardError)")
    }

    static let fileConfiguration = """
        {"hostname": "0.0.0.0", "port": 0, "log_level": "error", "delay": 1, "requests_folder": "from-file"}
        """

    @Test("the configuration file beats the defaults")
    func fileBeatsDefaults() async throws {
        let tree = try TemporaryTree(
            files: [
                "from-file/where/GET/configuration.json": Self.body("from-file"),
                "network-exchanges/where/GET/configuration.json": Self.body("default"),
            ],
            configuration: Self.fileConfiguration
        )
        defer { tree.remove() }
        // No flags: port 0 and everything else from ./configuration.json.
        let server = try await ServerProcess.start(["run"], in: tree.url)
        defer { server.stop() }
        #expect(server.port != 8080)
        #expect(server.listeningLine == "espressomartini listening on http://0.0.0.0:\(server.port)")
        let answer = try await HTTPClient(host: "127.0.0.1", port: server.port).timed("GET", "/where")
        #expect(answer.elapsed >= .seconds(1), "the file's delay of 1 s was not applied")
        #expect(try answer.get().text == "from-file")
        let outcome = server.stop()
        #expect(outcome.exitCode == 0)
        #expect(
            !outcome.standardError.contains("INFO"),
            "log_level error in the file still logs INFO:\n\(outcome.standardError)")
    }

    @Test("flags beat the configuration file")
    func flagsBeatFile() async throws {
        let tree = try TemporaryTree(
            files: [
                "from-file/where/GET/configuration.json": Self.body("from-file"),
                "from-flag/where/GET/configuration.json": Self.body("from-flag"),
            ],
            configuration: Self.fileConfiguration
        )
        defer { tree.remove() }
        let server = try await ServerProcess.start(
            [
                "run", "--port", "0", "--hostname", "127.0.0.1", "--requests-folder", "from-flag", "--log-level",
                "info", "--delay", "0",
            ],
            in: tree.url
        )
        defer { server.stop() }
        #expect(server.listeningLine == "espressomartini listening on http://127.0.0.1:\(server.port)")
        let answer = try await server.client.timed("GET", "/where")
        #expect(answer.elapsed < .milliseconds(800), "--delay 0 did not beat the file's 1 s")
        #expect(try answer.get().text == "from-flag")
        let logged = await server.waitForStandardErrorLine { $0.contains("INFO") && $0.contains("/where") }
        #expect(logged != nil, "--log-level info did not beat the file's error:\n\(server.standardError)")
    }

    @Test("run with no flags in a folder with configuration.json and network-exchanges/ uses both")
    func runWithNoFlags() async throws {
        let tree = try TemporaryTree(
            exchanges: ["where/GET/configuration.json": Self.body("here")],
            configuration: #"{"port": 0, "headers": {"X-From-Configuration": "yes"}}"#
        )
        defer { tree.remove() }
        let server = try await ServerProcess.start(["run"], in: tree.url)
        defer { server.stop() }
        #expect(server.listeningLine == "espressomartini listening on http://127.0.0.1:\(server.port)")
        let response = try await server.client.get("/where")
        #expect(response.statusCode == 200)
        #expect(response.text == "here")
        #expect(response.header("X-From-Configuration") == "yes")
    }

    /// A layout where the current folder, the configuration's folder and the trees all differ.
    static func layout() throws -> TemporaryTree {
        try TemporaryTree(files: [
            "conf/server.json": #"{"requests_folder": "../trees/one"}"#,
            "conf/plain.json": "{}",
            "conf/network-exchanges/where/GET/configuration.json": body("beside-configuration"),
            "conf/flag-tree/where/GET/configuration.json": body("flag-tree-beside-configuration"),
            "trees/one/where/GET/configuration.json": body("trees-one"),
            "network-exchanges/where/GET/configuration.json": body("current-folder"),
            "flag-tree/where/GET/configuration.json": body("flag-tree-in-current-folder"),
            "work/": .folder,
        ])
    }

    @Test(
        "relative paths: requests_folder against the configuration file's folder, --requests-folder against the current folder",
        arguments: [
            (["--configuration", "conf/server.json"], "", "trees-one"),
            (["--configuration", "../conf/server.json"], "work", "trees-one"),
            (["--configuration", "conf/plain.json"], "", "beside-configuration"),
            (
                ["--configuration", "conf/plain.json", "--requests-folder", "flag-tree"], "",
                "flag-tree-in-current-folder"
            ),
            (
                ["--configuration", "conf/server.json", "--requests-folder", "flag-tree"], "",
                "flag-tree-in-current-folder"
            ),
            ([], "", "current-folder"),
        ]
    )
    func relativePaths(flags: [String], currentFolder: String, expected: String) async throws {
        let tree = try Self.layout()
        defer { tree.remove() }
        let directory = currentFolder.isEmpty ? tree.url : tree.url.appendingPathComponent(currentFolder)
        let server = try await ServerProcess.start(["run", "--port", "0"] + flags, in: directory)
        defer { server.stop() }
        let response = try await server.client.get("/where")
        #expect(response.text == expected, "\(flags) in ./\(currentFolder)")

        let listing = try await ServerProcess.runToCompletion(["endpoints", "--json"] + flags, in: directory)
        #expect(listing.exitCode == 0, "\(listing)")
        let exchanges = try #require(
            try JSONSerialization.jsonObject(with: Data(listing.standardOutput.utf8)) as? [[String: Any]])
        let responses = try #require(exchanges.first?["responses"] as? [[String: Any]])
        #expect(responses.first?["body"] as? String == expected, "endpoints \(flags) in ./\(currentFolder)")
    }
}
