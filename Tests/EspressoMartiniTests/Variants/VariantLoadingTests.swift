import EspressoMartini
import Testing

/// How the loader reads `{"variants": [...]}` and `{"responses": ..., "sequence": ...}` (doc/tree.md, doc/variants.md), and every
/// mistake in them, each with its position.
@Suite struct VariantLoadingTests {
    static let at = LoaderErrorCase.at

    static let errors: [LoaderErrorCase] = [
        .init(
            "empty variants", configuration: #"{"variants": []}"#,
            [
                #"\#(at):1:14: error: 'variants' must be a non-empty array of variants such as {"when": {"query": {"page": "2"}}, "responses": {"status_code": 200}}, found an empty array"#
            ]),
        .init(
            "variants not an array", configuration: #"{"variants": {"when": {}}}"#,
            [
                #"\#(at):1:14: error: 'variants' must be a non-empty array of variants such as {"when": {"query": {"page": "2"}}, "responses": {"status_code": 200}}, found an object"#
            ]),
        .init(
            "a key beside variants", configuration: #"{"variants": [{"responses": {}}], "status_code": 200}"#,
            [
                "\(at):1:35: error: 'status_code' cannot stand beside 'variants'; move it into a variant's responses"
            ]),
        .init(
            "a variant without responses", configuration: #"{"variants": [{"when": {"query": {"a": "1"}}}]}"#,
            [
                "\(at):1:15: error: variant 1 has no 'responses'; give a response object or an array of them"
            ]),
        .init(
            "a variant that is not an object", configuration: #"{"variants": ["x"]}"#,
            [
                "\(at):1:15: error: a variant must be an object with 'when' and 'responses', found a string"
            ]),
        .init(
            "an unknown condition", configuration: #"{"variants": [{"when": {"qeury": {"a": "1"}}, "responses": {}}]}"#,
            [
                "\(at):1:25: error: unknown condition 'qeury'; 'when' takes 'query', 'headers', 'cookies', 'path', 'body', 'body_base64', 'json', 'form', 'multipart' and 'graphql'; did you mean 'query'?"
            ]),
        .init(
            "an unknown matcher key",
            configuration: #"{"variants": [{"when": {"query": {"a": {"equal": "1"}}}, "responses": {}}]}"#,
            [
                "\(at):1:41: error: unknown matcher key 'equal'; a matcher has one of 'equals', 'contains', 'prefix', 'regex', 'present'; did you mean 'equals'?"
            ]),
        .init(
            "two keys in one matcher",
            configuration:
                #"{"variants": [{"when": {"query": {"a": {"equals": "1", "prefix": "1"}}}, "responses": {}}]}"#,
            [
                "\(at):1:56: error: 'equals' and 'prefix' cannot both be given in one matcher; keep one of them"
            ]),
        .init(
            "a regular expression that does not compile",
            configuration: #"{"variants": [{"when": {"headers": {"X": {"regex": "(a"}}}, "responses": {}}]}"#,
            [
                #"\#(at):1:52: error: 'regex' "(a" does not compile: expected ')'"#
            ]),
        .init(
            "a pointer without a slash",
            configuration: #"{"variants": [{"when": {"json": {"user/name": "ada"}}, "responses": {}}]}"#,
            [
                #"\#(at):1:34: error: 'user/name' is not a JSON Pointer: it must be "" (the whole document) or start with '/', as in '/user/name'"#
            ]),
        .init(
            "a path name the route does not capture",
            configuration: #"{"variants": [{"when": {"path": {"id": "7"}}, "responses": {}}]}"#,
            [
                "\(at):1:34: error: the route does not capture 'id': it captures nothing; name a folder {id} or :id to capture it"
            ]),
        .init(
            "a bad response inside a variant", configuration: #"{"variants": [{"responses": [{"status_code": 99}]}]}"#,
            [
                "\(at):1:46: error: 'status_code' 99 is out of range; use a status from 200 to 599"
            ]),
        .init(
            "a misspelt sequence mode", configuration: #"{"responses": [{}, {}], "sequence": "loops"}"#,
            [
                "\(at):1:37: error: 'sequence' must be one of 'repeat_last', 'loop' or 'once', found \"loops\"; did you mean 'loop'?"
            ]),
        .init(
            "a misspelt sequence mode in a variant",
            configuration: #"{"variants": [{"responses": {}, "sequence": "onse"}]}"#,
            [
                "\(at):1:45: error: 'sequence' must be one of 'repeat_last', 'loop' or 'once', found \"onse\"; did you mean 'once'?"
            ]),
        .init(
            "a sequence mode that is not one", configuration: #"{"responses": [{}], "sequence": 3}"#,
            [
                "\(at):1:33: error: 'sequence' must be one of 'repeat_last', 'loop' or 'once', found 3"
            ]),
        .init(
            "every mistake of every variant at once",
            configuration: """
                {"variants": [
                  {"when": {"query": {"a": {"regex": "["}}}, "responses": {}},
                  {"when": {"cookie": {"a": "1"}}, "responses": {"status_code": 1000}}
                ]}
                """,
            [
                #"\#(at):2:38: error: 'regex' "[" does not compile: expected custom character class members"#,
                "\(at):3:13: error: unknown condition 'cookie'; 'when' takes 'query', 'headers', 'cookies', 'path', 'body', 'body_base64', 'json', 'form', 'multipart' and 'graphql'; did you mean 'cookies'?",
                "\(at):3:65: error: 'status_code' 1000 is out of range; use a status from 200 to 599",
            ]),
    ]

    @Test(arguments: errors)
    func reportsExactlyThisDiagnosticAndNoTree(_ testCase: LoaderErrorCase) throws {
        try testCase.check()
    }

    @Test func aVariantAfterOneWithoutConditionsIsAWarning() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration:
                    #"{"variants": [{"responses": {}}, {"when": {"query": {"a": "1"}}, "responses": {}}]}"#
            ]))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(Self.at):1:34: warning: variant 2 never answers: variant 1 before it has no condition and answers every request"
            ])
        #expect(tree?.exchanges.first?.variants.count == 2)
    }

    @Test func variantsKeepTheirResponsesInTurnAndTheirWhenAsWritten() throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(
            FolderFixture(files: [
                "exchanges/users/{id}/GET/configuration.json": """
                {"variants": [
                  {"when": {"path": {"id": "7"}, "headers": {"X-Mode": {"present": true}}}, "responses": [{"status_code": 201}, {"status_code": 202}]},
                  {"responses": {"status_code": 404}, "sequence": "repeat_last"}
                ]}
                """
            ]))
        #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
        let exchange = try #require(tree?.exchanges.first)
        #expect(exchange.responses.map { $0.content?.statusCode } == [201, 202, 404])
        #expect(exchange.variants.map(\.responses) == [0..<2, 2..<3])
        #expect(exchange.variants[0].conditions.summary == "path id=7, header x-mode present")
        #expect(exchange.variants[1].when == nil)
        #expect(exchange.counterCount == 2)
        #expect(!exchange.readsBody)
    }

    @Test func aWhenOutsideAVariantIsAnUnknownKey() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration: #"{"responses": {}, "when": {"query": {"a": "1"}}}"#
            ]))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(Self.at):1:19: warning: unknown key 'when' is ignored"
            ])
        #expect(tree?.exchanges.first?.variants.isEmpty == true)
    }

    @Test func theSequenceShapeIsAPlainSequence() throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration: #"{"responses": [{"status_code": 201}, {}], "sequence": "repeat_last"}"#
            ]))
        #expect(diagnostics.all.isEmpty)
        #expect(tree?.exchanges.first?.responses.map { $0.content?.statusCode } == [201, 200])
        #expect(tree?.exchanges.first?.variants.isEmpty == true)
    }

    @Test(arguments: [
        (#"{"responses": [{}, {}], "sequence": "loop"}"#, SequenceMode.loop, [SequenceMode]()),
        (#"{"responses": [{}, {}], "sequence": "once"}"#, .once, []),
        (#"{"responses": [{}, {}]}"#, .repeatLast, []),
        (
            #"{"variants": [{"when": {"query": {"a": "1"}}, "responses": {}, "sequence": "once"}, {"responses": {}, "sequence": "loop"}]}"#,
            .repeatLast, [.once, .loop]
        ),
    ])
    func theSequenceModeIsKeptWhereItIsGiven(
        _ configuration: String, _ mode: SequenceMode, _ variantModes: [SequenceMode]
    ) throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(
            FolderFixture(files: [LoaderErrorCase.configuration: configuration]))
        #expect(diagnostics.all.isEmpty, "\(diagnostics.all)")
        let exchange = try #require(tree?.exchanges.first)
        #expect(exchange.sequence == mode)
        #expect(exchange.variants.map(\.sequence) == variantModes)
    }
}
