import EspressoMartini
import Testing

/// One fixture tree per failure mode. Each expectation is the complete list of diagnostics as
/// printed, so a wrong path, line, column or message, or a missing or extra diagnostic, fails.
struct LoaderErrorCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let fixture: FolderFixture
    let expected: [String]

    init(
        _ name: String, files: [String: String] = [:], folders: [String] = [], symlinks: [String: String] = [:],
        _ expected: [String]
    ) {
        self.testDescription = name
        self.fixture = FolderFixture(files: files, folders: folders, symlinks: symlinks)
        self.expected = expected
    }

    /// The common case: one `GET` exchange at the root whose configuration is `json`.
    init(
        _ name: String, configuration json: String, files: [String: String] = [:], folders: [String] = [],
        symlinks: [String: String] = [:], _ expected: [String]
    ) {
        self.init(
            name, files: files.merging([Self.configuration: json]) { $1 }, folders: folders, symlinks: symlinks,
            expected)
    }

    static let configuration = "exchanges/GET/configuration.json"
    static let at = "$TMP/" + configuration

    /// Loads the fixture: exactly the expected diagnostics, and no tree.
    func check() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(fixture)
        #expect(LoaderFixture.descriptions(diagnostics, root: root) == expected)
        #expect(tree == nil)
    }
}

@Suite struct LoaderErrorTests {
    static let cases: [LoaderErrorCase] = [
        // JSON syntax: positions are jansson's (the column of the last character of the bad token).
        .init(
            "malformed JSON on one line", configuration: #"{"status_code": 200,}"#,
            [
                "\(LoaderErrorCase.at):1:21: error: invalid JSON: string or '}' expected near '}'"
            ]),
        .init(
            "malformed JSON on line 3",
            configuration: """
                {
                  "status_code": 200,
                  "headers": {"a": "b",, }
                }
                """,
            [
                "\(LoaderErrorCase.at):3:24: error: invalid JSON: string or '}' expected near ','"
            ]),
        .init(
            "duplicate keys",
            configuration: """
                {
                  "status_code": 200,
                  "status_code": 201
                }
                """,
            [
                "\(LoaderErrorCase.at):3:15: error: invalid JSON: duplicate object key near '\"status_code\"'"
            ]),
        .init(
            "empty configuration file", configuration: "",
            [
                "\(LoaderErrorCase.at):1:1: error: invalid JSON: the file is empty"
            ]),
        .init(
            "multi-byte characters count as one column", configuration: #"{"é": tru}"#,
            [
                "\(LoaderErrorCase.at):1:9: error: invalid JSON: invalid token near 'tru'"
            ]),

        // Wrong types and ranges: positions come from the source map (the start of the value).
        .init(
            "status_code as a string in the second response",
            configuration: """
                [
                  {"status_code": 200},
                  {"status_code": "201"}
                ]
                """,
            [
                "\(LoaderErrorCase.at):3:19: error: 'status_code' must be an integer from 200 to 599, found a string"
            ]),
        .init(
            "status_code as a real number", configuration: #"{"status_code": 200.0}"#,
            [
                "\(LoaderErrorCase.at):1:17: error: 'status_code' must be an integer from 200 to 599, found a number"
            ]),
        .init(
            "status below 200", configuration: #"{"status_code": 199}"#,
            [
                "\(LoaderErrorCase.at):1:17: error: 'status_code' 199 is out of range; use a status from 200 to 599"
            ]),
        .init(
            "status above 599", configuration: #"{"status_code": 600}"#,
            [
                "\(LoaderErrorCase.at):1:17: error: 'status_code' 600 is out of range; use a status from 200 to 599"
            ]),
        .init(
            "headers not an object", configuration: #"{"headers": ["X-A: 1"]}"#,
            [
                "\(LoaderErrorCase.at):1:13: error: 'headers' must be an object of header names to strings, found an array"
            ]),
        .init(
            "header value not a string",
            configuration: """
                {
                  "status_code": 200,
                  "headers": {"X": 1}
                }
                """,
            [
                "\(LoaderErrorCase.at):3:20: error: header 'X' must be a string or a non-empty array of strings, found an integer"
            ]),
        .init(
            "header value array holding a number", configuration: #"{"headers": {"Set-Cookie": ["a=1", 2]}}"#,
            [
                "\(LoaderErrorCase.at):1:36: error: header 'Set-Cookie' values must be strings, found an integer"
            ]),
        .init(
            "header value with a line break", configuration: #"{"headers": {"X": "a\nb"}}"#,
            [
                "\(LoaderErrorCase.at):1:19: error: header 'X' value must not contain line breaks"
            ]),
        .init(
            "header name that is not a token", configuration: #"{"headers": {"Bad Name": "x"}}"#,
            [
                "\(LoaderErrorCase.at):1:14: error: 'Bad Name' is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)"
            ]),
        .init(
            "delay as a string", configuration: #"{"delay": "1"}"#,
            [
                "\(LoaderErrorCase.at):1:11: error: 'delay' must be a number of seconds or a distribution such as {\"min\": 0.1, \"max\": 2}, found a string"
            ]),
        .init(
            "negative delay", configuration: #"{"delay": -0.5}"#,
            [
                "\(LoaderErrorCase.at):1:11: error: 'delay' must not be negative; use 0 or more seconds"
            ]),
        .init(
            "a misspelt fault", configuration: #"{"fault": "connection_rest"}"#,
            [
                "\(LoaderErrorCase.at):1:11: error: 'fault' must be one of 'connection_reset', 'empty_response' or 'truncated_body', found \"connection_rest\"; did you mean 'connection_reset'?"
            ]),
        .init(
            "a fault that is not a name", configuration: #"{"fault": true}"#,
            [
                "\(LoaderErrorCase.at):1:11: error: 'fault' must be one of 'connection_reset', 'empty_response' or 'truncated_body', found true"
            ]),
        .init(
            "a delay range with min above max", configuration: #"{"delay": {"min": 2, "max": 0.5}}"#,
            [
                "\(LoaderErrorCase.at):1:11: error: the delay range's 'min' 2s is above its 'max' 0.5s; give 'min' ≤ 'max'"
            ]),
        .init(
            "a delay range with a negative bound", configuration: #"{"delay": {"min": -1, "max": 1}}"#,
            [
                "\(LoaderErrorCase.at):1:19: error: 'min' must not be negative; use 0 or more seconds"
            ]),
        .init(
            "a delay range with an unknown key and a missing one",
            configuration: #"{"delay": {"min": 1, "maximum": 2}}"#,
            [
                "\(LoaderErrorCase.at):1:22: error: unknown key 'maximum' in a delay range; it takes 'min' and 'max'; did you mean 'max'?",
                "\(LoaderErrorCase.at):1:11: error: a delay range needs 'min' and 'max'; 'max' is missing",
            ]),
        .init(
            "a delay range bound that is not a number", configuration: #"{"delay": {"min": "1", "max": 2}}"#,
            [
                "\(LoaderErrorCase.at):1:19: error: 'min' must be a number of seconds, found a string"
            ]),
        .init(
            "document that is neither an object nor an array", configuration: #"  "hello""#,
            [
                "\(LoaderErrorCase.at):1:3: error: expected a response object or an array of them, found a string"
            ]),
        .init(
            "empty array", configuration: "\n  [ ]\n",
            [
                "\(LoaderErrorCase.at):2:3: error: the array of responses is empty; give at least one response object, or delete the file to answer 200 with no body"
            ]),
        .init(
            "array element that is not an object", configuration: #"[{"status_code": 201}, "oops"]"#,
            [
                "\(LoaderErrorCase.at):1:24: error: a response must be an object with keys such as 'status_code' and 'body', found a string"
            ]),
        .init(
            "configuration.json that is a folder", folders: ["exchanges/GET/configuration.json"],
            [
                "\(LoaderErrorCase.at): error: 'configuration.json' must be a file"
            ]),

        // response_file
        .init(
            "missing response_file", configuration: #"{"response_file": "missing.json"}"#,
            [
                "\(LoaderErrorCase.at):1:19: error: 'response_file' 'missing.json' does not exist; create $TMP/exchanges/GET/missing.json or fix the name"
            ]),
        .init(
            "response_file climbing out of the requests folder",
            configuration: #"{"response_file": "../../secret.txt"}"#,
            files: ["secret.txt": "top secret"],
            [
                "\(LoaderErrorCase.at):1:19: error: 'response_file' '../../secret.txt' resolves outside the requests folder; keep response files inside it"
            ]),
        .init(
            "response_file that is a symbolic link to outside", configuration: #"{"response_file": "secret.txt"}"#,
            files: ["secret.txt": "top secret"], symlinks: ["exchanges/GET/secret.txt": "$TMP/secret.txt"],
            [
                "\(LoaderErrorCase.at):1:19: error: 'response_file' 'secret.txt' resolves outside the requests folder; keep response files inside it"
            ]),
        .init(
            "absolute response_file", configuration: #"{"response_file": "/etc/hostname"}"#,
            [
                "\(LoaderErrorCase.at):1:19: error: 'response_file' '/etc/hostname' must be relative to the method folder, not absolute"
            ]),
        .init(
            "response_file that is a folder", configuration: #"{"response_file": "assets"}"#,
            folders: ["exchanges/GET/assets"],
            [
                "\(LoaderErrorCase.at):1:19: error: 'response_file' 'assets' is not a regular file"
            ]),
        .init(
            "response_file together with body",
            configuration: """
                {
                  "body": "inline",
                  "response_file": "data.json"
                }
                """, files: ["exchanges/GET/data.json": "{}"],
            [
                "\(LoaderErrorCase.at):3:3: error: 'response_file' and 'body' cannot both be given; keep one of them"
            ]),

        // Tree shape
        .init(
            "a non-method folder below **", folders: ["exchanges/files/**/extra/GET"],
            [
                "$TMP/exchanges/files/**/extra: error: '**' must be the last path component, but 'extra' is a folder below it; only method folders (GET, POST, …) may be inside a '**' folder"
            ]),
        .init(
            "a method-named path component below **", folders: ["exchanges/files/**/GET/more"],
            [
                "$TMP/exchanges/files/**/GET: error: '**' must be the last path component, but 'GET' is a folder below it; only method folders (GET, POST, …) may be inside a '**' folder"
            ]),
        .init(
            "GET and get side by side", folders: ["exchanges/users/GET", "exchanges/users/get"],
            [
                "$TMP/exchanges/users/get: error: GET /users matches exactly the same requests as GET /users in $TMP/exchanges/users/GET; remove or rename one of the two folders"
            ]),
        .init(
            "{id} beside *", folders: ["exchanges/users/{id}/GET", "exchanges/users/*/GET"],
            [
                "$TMP/exchanges/users/{id}/GET: error: GET /users/{id} matches exactly the same requests as GET /users/* in $TMP/exchanges/users/*/GET; remove or rename one of the two folders"
            ]),
        .init(
            "{id} beside :name", folders: ["exchanges/users/{id}/GET", "exchanges/users/:name/GET"],
            [
                "$TMP/exchanges/users/{id}/GET: error: GET /users/{id} matches exactly the same requests as GET /users/:name in $TMP/exchanges/users/:name/GET; remove or rename one of the two folders"
            ]),
        .init(
            "a broken exchange still clashes with its twin",
            files: ["exchanges/users/GET/configuration.json": #"{"delay": "x"}"#], folders: ["exchanges/users/get"],
            [
                "$TMP/exchanges/users/GET/configuration.json:1:11: error: 'delay' must be a number of seconds or a distribution such as {\"min\": 0.1, \"max\": 2}, found a string",
                "$TMP/exchanges/users/get: error: GET /users matches exactly the same requests as GET /users in $TMP/exchanges/users/GET; remove or rename one of the two folders",
            ]),
        .init(
            "the reserved __espressomartini folder", folders: ["exchanges/__espressomartini/GET"],
            [
                "$TMP/exchanges/__espressomartini: error: the folder name '__espressomartini' is reserved for the admin API; rename the folder"
            ]),
        .init(
            "a folder linking back into the tree", folders: ["exchanges/api/GET"],
            symlinks: ["exchanges/api/loop": "$TMP/exchanges/api"],
            [
                "$TMP/exchanges/api/loop: error: this folder links back to a folder above it, which would never end; remove the link"
            ]),
        // Below a link, even a plain folder can be one above: `up` leads out of the tree to the folder
        // holding it, whose plain sub-folder `exchanges` is the requests folder itself.
        .init(
            "a plain folder below a link that is the requests folder", folders: ["exchanges/api/GET"],
            symlinks: ["exchanges/up": "$TMP"],
            [
                "$TMP/exchanges/up/exchanges: error: this folder links back to a folder above it, which would never end; remove the link"
            ]),
        .init(
            "missing requests folder",
            [
                "$TMP/exchanges: error: the requests folder does not exist; create it or pass --requests-folder"
            ]),
        .init(
            "requests folder that is a file", files: ["exchanges": "not a folder"],
            [
                "$TMP/exchanges: error: the requests folder is not a folder; create it or pass --requests-folder"
            ]),
    ]

    @Test(arguments: cases)
    func reportsExactlyThisDiagnosticAndNoTree(_ testCase: LoaderErrorCase) throws {
        try testCase.check()
    }

    @Test func everyErrorOfATreeIsReportedInWalkOrderWithTheClashesLast() throws {
        let fixture = FolderFixture(
            files: [
                "exchanges/a/GET/configuration.json": #"{"status_code": 700}"#,
                "exchanges/b/POST/configuration.json": #"{"status_code": 200,}"#,
                "exchanges/c/PUT/configuration.json": """
                {
                  "status_code": "201",
                  "headers": [],
                  "delay": -1
                }
                """,
                "exchanges/e/GET/configuration.json": #"{"stauts_code": 200}"#,
            ],
            folders: ["exchanges/__espressomartini/GET", "exchanges/d/GET", "exchanges/d/get", "exchanges/fine/GET"]
        )
        let (tree, diagnostics, root) = try LoaderFixture.load(fixture)
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "$TMP/exchanges/__espressomartini: error: the folder name '__espressomartini' is reserved for the admin API; rename the folder",
                "$TMP/exchanges/a/GET/configuration.json:1:17: error: 'status_code' 700 is out of range; use a status from 200 to 599",
                "$TMP/exchanges/b/POST/configuration.json:1:21: error: invalid JSON: string or '}' expected near '}'",
                "$TMP/exchanges/c/PUT/configuration.json:2:18: error: 'status_code' must be an integer from 200 to 599, found a string",
                "$TMP/exchanges/c/PUT/configuration.json:3:14: error: 'headers' must be an object of header names to strings, found an array",
                "$TMP/exchanges/c/PUT/configuration.json:4:12: error: 'delay' must not be negative; use 0 or more seconds",
                "$TMP/exchanges/e/GET/configuration.json:1:2: warning: unknown key 'stauts_code' is ignored; did you mean 'status_code'?",
                "$TMP/exchanges/d/get: error: GET /d matches exactly the same requests as GET /d in $TMP/exchanges/d/GET; remove or rename one of the two folders",
            ])
        #expect(diagnostics.summary == "7 errors and 1 warning")
        #expect(tree == nil)
    }

    @Test func everyBadResponseOfASequenceIsReported() throws {
        let (_, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration: """
                [
                  {"status_code": 100},
                  {"status_code": 200},
                  42
                ]
                """
            ]))
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "\(LoaderErrorCase.at):2:19: error: 'status_code' 100 is out of range; use a status from 200 to 599",
                "\(LoaderErrorCase.at):4:3: error: a response must be an object with keys such as 'status_code' and 'body', found an integer",
            ])
    }

    @Test func positionlessDiagnosticsPrintWithoutLineAndColumn() {
        #expect(Diagnostic(.error, path: "tree/GET", message: "broken").description == "tree/GET: error: broken")
        #expect(
            Diagnostic(.warning, path: "a.json", position: SourcePosition(line: 3, column: 17), message: "odd")
                .description
                == "a.json:3:17: warning: odd"
        )
    }

    @Test(arguments: [
        ([Diagnostic.Severity.error], "1 error"),
        ([.error, .error], "2 errors"),
        ([.error, .warning], "1 error and 1 warning"),
        ([.warning, .warning], "2 warnings"),
        ([], "0 errors"),
    ])
    func summaryCountsErrorsAndWarnings(_ severities: [Diagnostic.Severity], _ summary: String) {
        var diagnostics = Diagnostics()
        for severity in severities {
            if severity == .error { diagnostics.error("f", nil, "e") } else { diagnostics.warning("f", nil, "w") }
        }
        #expect(diagnostics.summary == summary)
        #expect(diagnostics.hasErrors == severities.contains(.error))
    }
}
