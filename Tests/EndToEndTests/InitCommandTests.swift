import Foundation
import Testing

/// doc/command-line.md: `init [DIR]` writes a starter tree that serves at once, says what to run next, and never overwrites.
@Suite("init")
struct InitCommandTests {
    static let starterFiles = [
        "configuration.json",
        "network-exchanges/api/hello/GET/configuration.json",
        "network-exchanges/api/hello/GET/hello.json",
        "network-exchanges/api/orders/POST/configuration.json",
        "network-exchanges/api/orders/{id}/GET/configuration.json",
    ]

    @Test("init DIR creates the missing folder, writes the starter tree and says what to run next")
    func writesIntoANewFolder() async throws {
        let folder = try TemporaryTree(files: ["keep.txt": "x"])
        defer { folder.remove() }
        let outcome = try await ServerProcess.runToCompletion(["init", "mocks/shop"], in: folder.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(outcome.standardError.isEmpty)
        for file in Self.starterFiles {
            #expect(
                FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("mocks/shop/" + file).path),
                "\(file)")
            #expect(outcome.standardOutput.contains("mocks/shop/" + file), "the message does not name \(file)")
        }
        #expect(outcome.standardOutput.contains("cd mocks/shop && espressomartini run"), "\(outcome)")
        #expect(outcome.standardOutput.contains("curl http://127.0.0.1:8080/api/hello"), "\(outcome)")
    }

    @Test("the starter tree serves its three routes without a warning")
    func theTreeServes() async throws {
        let folder = try TemporaryTree(files: ["keep.txt": "x"])
        defer { folder.remove() }
        let outcome = try await ServerProcess.runToCompletion(["init"], in: folder.url)
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(
            outcome.standardOutput.contains("\n  espressomartini run\n"),
            "in the current folder there is nothing to cd into: \(outcome)")
        // The configuration it wrote is found in the current folder; only the port is changed here.
        let server = try await ServerProcess.start(["run", "--port", "0"], in: folder.url)
        defer { server.stop() }
        let hello = try await server.client.get("/api/hello")
        #expect(hello.statusCode == 200)
        #expect(String(decoding: hello.body, as: UTF8.self).contains("Hello from espressomartini"))
        #expect(try await server.client.send("POST", "/api/orders").statusCode == 503)
        #expect(try await server.client.send("POST", "/api/orders").statusCode == 201)
        #expect(try await server.client.send("POST", "/api/orders").statusCode == 201)
        #expect(try await server.client.get("/api/orders/42").statusCode == 200)
        let stopped = server.stop()
        #expect(!stopped.standardError.contains("warning"), "\(stopped)")
        #expect(stopped.standardError.contains("serving 3 exchanges"), "\(stopped)")
    }

    @Test("the starter files are valid against the schemas, and those that are objects name them")
    func theFilesNameTheirSchema() async throws {
        let folder = try TemporaryTree(files: ["keep.txt": "x"])
        defer { folder.remove() }
        #expect(try await ServerProcess.runToCompletion(["init"], in: folder.url).exitCode == 0)
        let configurations = Self.starterFiles.filter { $0.hasSuffix("configuration.json") }
        for file in configurations {
            let url = folder.url.appendingPathComponent(file)
            let kind: SchemaTests.SchemaKind = file == "configuration.json" ? .server : .exchange
            #expect(try SchemaTests.validate(kind, [url.path])[url.path] == "valid", "\(file)")
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
            guard let object = document as? [String: Any] else { continue }  // the sequence, an array
            let schema = try #require(object["$schema"] as? String, "\(file) does not name its schema")
            #expect(
                schema.hasPrefix("file:///") && schema.hasSuffix("/" + (SchemaTests.schemaFileNames[kind] ?? "?")),
                "\(file): \(schema)")
        }
    }

    /// Any one starter file already there: exit 73 naming it, and nothing else written.
    @Test(
        "init never overwrites: exit 73, the file named, nothing written",
        arguments: starterFiles + ["network-exchanges"])
    func refusesToOverwrite(existing: String) async throws {
        let folder = try TemporaryTree(files: ["shop/" + existing: "mine"])
        defer { folder.remove() }
        let before = try Self.contents(of: folder.url)
        let outcome = try await ServerProcess.runToCompletion(["init", "shop"], in: folder.url)
        #expect(outcome.exitCode == 73, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("shop/" + existing), "\(outcome)")
        #expect(try Self.contents(of: folder.url) == before)
        #expect(
            try String(contentsOf: folder.url.appendingPathComponent("shop/" + existing), encoding: .utf8) == "mine")
    }

    static let folderCompletions: [(shell: String, line: String)] = [
        ("bash", #"if [[ $current != -* ]]; then _espressomartini_paths "$current" -d; return; fi"#),
        ("zsh", "'::dir:_files -/'"),
        (
            "fish",
            "complete -c espressomartini -n '__espressomartini_command_is init' -a '(__fish_complete_directories)'"
        ),
    ]

    @Test("the completion scripts offer init and folders for its DIR", arguments: folderCompletions)
    func completion(shell: String, line: String) async throws {
        let folder = try TemporaryTree()
        defer { folder.remove() }
        let outcome = try await ServerProcess.runToCompletion(["--generate-completion-script", shell], in: folder.url)
        #expect(outcome.exitCode == 0)
        #expect(outcome.standardOutput.contains(line), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("init"))
    }

    /// Every path under a folder, folders included.
    static func contents(of folder: URL) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder.path).sorted()
    }
}
