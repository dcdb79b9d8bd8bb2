import EspressoMartini
import Testing

/// How the loader reads a tree: small response files in the same pass, special files without blocking,
/// and wide trees walked on every core with the same result as one walk in order.
@Suite struct LoaderReadingTests {
    @Test func smallResponseFilesAreReadWithTheTreeAndLargeOnesAreLeftOnDisk() throws {
        let large = String(repeating: "x", count: TreeLoader.readFileLimit + 1)
        let (tree, diagnostics, _) = try LoaderFixture.load(FolderFixture(files: [
            "exchanges/small/GET/configuration.json": #"{"response_file": "small.json"}"#,
            "exchanges/small/GET/small.json": #"{"ok":true}"#,
            "exchanges/large/GET/configuration.json": #"{"response_file": "large.txt"}"#,
            "exchanges/large/GET/large.txt": large,
        ]))
        #expect(diagnostics.all.isEmpty)
        let bodies = Dictionary(uniqueKeysWithValues: (tree?.exchanges ?? []).map { ($0.folder, $0.responses[0].body) })
        guard case .loadedFile(_, let smallBytes) = bodies["small/GET"] else {
            Issue.record("small.json was not read: \(String(describing: bodies["small/GET"]))")
            return
        }
        #expect(Array(smallBytes.buffer) == Array(#"{"ok":true}"#.utf8))
        guard case .file(_, let largePath, let largeSize) = bodies["large/GET"] else {
            Issue.record("large.txt was not left on disk: \(String(describing: bodies["large/GET"]))")
            return
        }
        #expect(largeSize == large.utf8.count)
        #expect(largePath.hasSuffix("/exchanges/large/GET/large.txt"))
    }

    @Test(.timeLimit(.minutes(1))) func aNamedPipeAsResponseFileIsAnErrorAndDoesNotBlockTheLoad() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(FolderFixture(
            files: ["exchanges/pipe/GET/configuration.json": #"{"response_file": "fifo"}"#],
            fifos: ["exchanges/pipe/GET/fifo"]
        ))
        #expect(LoaderFixture.descriptions(diagnostics, root: root) == [
            "$TMP/exchanges/pipe/GET/configuration.json:1:19: error: 'response_file' 'fifo' is not a regular file",
        ])
        #expect(tree == nil)
    }

    /// Forty folders side by side are walked on every core; what comes back must not depend on which
    /// core finished first.
    @Test func aWideTreeGivesItsDiagnosticsAndExchangesInWalkOrderEveryTime() throws {
        var files: [String: String] = [:]
        var expected: [String] = []
        var routes: [String] = []
        for index in 0..<40 {
            let name = String(format: "r%02d", index)
            files["exchanges/\(name)/item/GET/configuration.json"] = #"{"status_code": 200}"#
            routes.append("GET /\(name)/item")
            if index % 3 == 0 {
                files["exchanges/\(name)/POST/configuration.json"] = #"{"delay": -1}"#
                expected.append("$TMP/exchanges/\(name)/POST/configuration.json:1:11: error: 'delay' must not be negative; use 0 or more seconds")
            }
        }
        for _ in 0..<5 {
            let (tree, diagnostics, root) = try LoaderFixture.load(FolderFixture(files: files))
            #expect(LoaderFixture.descriptions(diagnostics, root: root) == expected)
            #expect(tree == nil)
        }
        let fixed = files.filter { !$0.key.hasSuffix("POST/configuration.json") }
        let (tree, diagnostics, _) = try LoaderFixture.load(FolderFixture(files: fixed))
        #expect(diagnostics.all.isEmpty)
        #expect(LoaderFixture.routes(tree) == routes)
        #expect(tree?.exchanges.map(\.folder) == routes.map { String($0.dropFirst(5)) + "/GET" })
    }
}
