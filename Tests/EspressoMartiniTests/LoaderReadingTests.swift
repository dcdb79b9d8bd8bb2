import EspressoMartini
import Glibc
import Testing

/// How the loader reads a tree: response files checked without reading them, special files without blocking,
/// and wide trees walked on every core with the same result as one walk in order.
@Suite struct LoaderReadingTests {
    /// The loader checks response files without reading them (one `stat` each): the tree keeps the
    /// path and the size, and the server reads the bytes when a request first needs them.
    @Test func responseFilesAreCheckedNotRead() throws {
        let large = String(repeating: "x", count: 3 * 1024 * 1024)
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                "exchanges/small/GET/configuration.json": #"{"response_file": "small.json"}"#,
                "exchanges/small/GET/small.json": #"{"ok":true}"#,
                "exchanges/large/GET/configuration.json": #"{"response_file": "large.txt"}"#,
                "exchanges/large/GET/large.txt": large,
            ]))
        #expect(diagnostics.all.isEmpty)
        let bodies = (tree?.exchanges ?? []).map { $0.responses[0].content?.body }
        #expect(
            bodies == [
                ResponseBody.file(name: "large.txt", path: nil, size: large.utf8.count),
                ResponseBody.file(name: "small.json", path: nil, size: 11),
            ])
        let exchanges = tree?.exchanges ?? []
        #expect(
            exchanges.map { tree?.path(ofFile: $0.responses[0].content?.body.fileName ?? "", at: nil, in: $0) } == [
                root + "/exchanges/large/GET/large.txt", root + "/exchanges/small/GET/small.json",
            ])
    }

    /// A file only its owner may read takes the second question (`faccessat`); one nobody may read is
    /// an error, unless the loader runs as root, which reads anything.
    @Test func aResponseFileThatCannotBeReadIsAnErrorWithItsPosition() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(
                files: [
                    "exchanges/own/GET/configuration.json": #"{"response_file": "own.json"}"#,
                    "exchanges/own/GET/own.json": "{}",
                    "exchanges/none/GET/configuration.json": #"{"response_file": "none.json"}"#,
                    "exchanges/none/GET/none.json": "{}",
                ],
                modes: ["exchanges/own/GET/own.json": 0o600, "exchanges/none/GET/none.json": 0o000]
            ))
        if geteuid() == 0 {
            #expect(diagnostics.all.isEmpty)
            #expect(LoaderFixture.routes(tree) == ["GET /none", "GET /own"])
        } else {
            #expect(
                LoaderFixture.descriptions(diagnostics, root: root) == [
                    "$TMP/exchanges/none/GET/configuration.json:1:19: error: 'response_file' 'none.json' cannot be read; check its permissions"
                ])
            #expect(tree == nil)
        }
    }

    @Test(.timeLimit(.minutes(3))) func aNamedPipeAsResponseFileIsAnErrorAndDoesNotBlockTheLoad() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(
                files: ["exchanges/pipe/GET/configuration.json": #"{"response_file": "fifo"}"#],
                fifos: ["exchanges/pipe/GET/fifo"]
            ))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "$TMP/exchanges/pipe/GET/configuration.json:1:19: error: 'response_file' 'fifo' is not a regular file"
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
                expected.append(
                    "$TMP/exchanges/\(name)/POST/configuration.json:1:11: error: 'delay' must not be negative; use 0 or more seconds"
                )
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
