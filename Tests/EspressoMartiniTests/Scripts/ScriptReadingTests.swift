import EspressoMartini
import EspressoMartiniJansson
import Testing

/// `javascript` and `javascript_file` as the loader reads them (doc/scripts.md), with a checker that stands in for the
/// engine: the core records the script and its place, and reports the checker's problems where they are.
@Suite struct ScriptReadingTests {
    /// Fails every script whose source contains "bad" at the line and column it names.
    struct StubChecker: ScriptChecker {
        func check(_ script: ResponseScript) -> ScriptProblem? {
            script.source.contains("bad") ? ScriptProblem(message: "SyntaxError: bad", line: 2, column: 5) : nil
        }
    }

    static func load(_ files: [String: String]) throws -> (tree: ExchangeTree?, diagnostics: [String]) {
        try withTemporaryFolder(FolderFixture(files: files)) { root in
            let result = TreeLoader(parser: JanssonParser(), scriptChecker: StubChecker()).load(
                folder: root + "/exchanges")
            return (result.tree, LoaderFixture.descriptions(result.diagnostics, root: root))
        }
    }

    static let at = "$TMP/exchanges/a/GET/configuration.json"

    @Test func anInlineScriptIsRecordedWithItsPlace() throws {
        let (tree, diagnostics) = try Self.load([
            "exchanges/a/GET/configuration.json":
                "{\n  \"javascript\": \"function response() {}\",\n  \"delay\": 0.5\n}"
        ])
        #expect(diagnostics == [])
        let response = try #require(tree?.exchanges.first?.responses.first)
        let script = try #require(response.script)
        #expect(script.source == "function response() {}")
        #expect(script.inlinePosition == SourcePosition(line: 2, column: 17))
        #expect(script.fileLine(3) == 2, "an inline script's lines are its string's line")
        #expect(script.route == "/a")
        #expect(response.delay == 0.5)
        #expect(tree?.exchanges.first?.readsBody == true, "a script reads the body")
    }

    @Test func aScriptFileIsReadAndNamed() throws {
        let (tree, diagnostics) = try Self.load([
            "exchanges/a/GET/configuration.json": #"{"javascript_file": "code/response.js"}"#,
            "exchanges/a/GET/code/response.js": "function response() {}\n",
        ])
        #expect(diagnostics == [])
        let script = try #require(tree?.exchanges.first?.responses.first?.script)
        #expect(script.source == "function response() {}\n")
        #expect(script.file.hasSuffix("/exchanges/a/GET/code/response.js"))
        #expect(script.inlinePosition == nil)
        #expect(script.fileLine(3) == 3)
        #expect(script.methodFolderRealPath.hasSuffix("/exchanges/a/GET"))
    }

    @Test(
        "mistakes are load errors at their place",
        arguments: [
            (
                ["exchanges/a/GET/configuration.json": "{\n  \"javascript\": \"bad\"\n}"],
                [Self.at + ":2:17: error: the script in 'javascript': SyntaxError: bad"]
            ),
            (
                [
                    "exchanges/a/GET/configuration.json": #"{"javascript_file": "a.js"}"#,
                    "exchanges/a/GET/a.js": "\nbad",
                ],
                ["$TMP/exchanges/a/GET/a.js:2:5: error: SyntaxError: bad"]
            ),
            (
                [
                    "exchanges/a/GET/configuration.json":
                        #"{"javascript": "function response() {}", "headers": {"A": "b"}, "body": 1}"#
                ],
                [
                    Self.at
                        + ":1:42: error: 'headers' cannot stand beside 'javascript': the script's Response gives status, headers and body; only 'delay', 'bandwidth' and 'network' may stand beside it",
                    Self.at
                        + ":1:65: error: 'body' cannot stand beside 'javascript': the script's Response gives status, headers and body; only 'delay', 'bandwidth' and 'network' may stand beside it",
                ]
            ),
            (
                [
                    "exchanges/a/GET/configuration.json":
                        #"{"javascript": "function response() {}", "javascrpt_file": "x"}"#
                ],
                [Self.at + ":1:42: error: unknown key 'javascrpt_file' is ignored; did you mean 'javascript_file'?"]
            ),
            (
                ["exchanges/a/GET/configuration.json": #"{"javascript": 1}"#],
                [
                    Self.at
                        + ":1:16: error: 'javascript' must be the script's source, a string defining function response(request, cache), found an integer"
                ]
            ),
            (
                ["exchanges/a/GET/configuration.json": #"{"javascript": ""}"#],
                [
                    Self.at
                        + ":1:16: error: 'javascript' must be the script's source, a string defining function response(request, cache), found a string"
                ]
            ),
            (
                ["exchanges/a/GET/configuration.json": #"{"javascript_file": "/etc/a.js"}"#],
                [
                    Self.at
                        + ":1:21: error: 'javascript_file' '/etc/a.js' must be relative to the method folder, not absolute"
                ]
            ),
            (
                [
                    "exchanges/a/GET/configuration.json": #"{"javascript_file": "../../../outside.js"}"#,
                    "outside.js": "function response() {}",
                ],
                [
                    Self.at
                        + ":1:21: error: 'javascript_file' '../../../outside.js' resolves outside the requests folder; keep response files inside it"
                ]
            ),
            (
                ["exchanges/a/GET/configuration.json": #"[{"javascript": "bad"}, {"variants": 1}]"#],
                [
                    Self.at + ":1:17: error: the script in 'javascript': SyntaxError: bad",
                    Self.at + ":1:26: warning: unknown key 'variants' is ignored",
                ]
            ),
        ] as [([String: String], [String])])
    func mistakes(_ files: [String: String], _ expected: [String]) throws {
        let (tree, diagnostics) = try Self.load(files)
        #expect(diagnostics == expected)
        #expect(tree == nil)
    }

    @Test func aVariantCanAnswerWithAScript() throws {
        let (tree, diagnostics) = try Self.load([
            "exchanges/a/GET/configuration.json":
                #"{"variants": [{"when": {"query": {"a": "1"}}, "responses": {"javascript": "function response() {}"}}, {"responses": {}}]}"#
        ])
        #expect(diagnostics == [])
        #expect(tree?.exchanges.first?.responses.map { $0.script != nil } == [true, false])
    }
}
