import Foundation
import Testing

/// doc/command-line.md `explain`: what would answer a request, in text and JSON, with the exit codes of the command.
@Suite("explain")
struct ExplainCommandTests {
    /// doc/variants.md's example, a catch-all beside it, a POST whose variant reads the JSON body.
    static let exchanges: [String: TreeEntry] = [
        "products/{id}/GET/configuration.json": """
        {"variants": [
          {"when": {"query": {"page": "2"}}, "responses": {"response_file": "page-2.json"}},
          {"when": {"headers": {"Authorization": {"present": false}}}, "responses": {"status_code": 401}},
          {"responses": [{"response_file": "page-1.json"}, {"status_code": 304}]}
        ]}
        """,
        "products/{id}/GET/page-1.json": "[1]",
        "products/{id}/GET/page-2.json": "[2]",
        "products/**/GET/configuration.json": #"{"body": "any"}"#,
        "orders/POST/configuration.json":
            #"{"variants": [{"when": {"json": {"/express": {"equals": true}}}, "responses": {"status_code": 201}}]}"#,
        "files/a b/GET/": .folder,
    ]

    static func explain(
        _ arguments: [String], configuration: String? = nil, files: [String: TreeEntry] = [:]
    ) async throws -> ProcessOutcome {
        let tree = try TemporaryTree(exchanges: exchanges, files: files, configuration: configuration)
        defer { tree.remove() }
        return try await ServerProcess.runToCompletion(["explain"] + arguments, in: tree.url)
    }

    @Test("text: the exchange, variant, response and folder that would answer, each variant, the other routes; exit 0")
    func textOfAnAnswer() async throws {
        let outcome = try await Self.explain(["GET", "/products/7?page=2"])
        #expect(outcome.exitCode == 0, "\(outcome)")
        #expect(
            outcome.standardOutput == """
                GET /products/7?page=2
                answer:   200 from GET /products/{id}, variant 1 of 3, response 1 of 1
                folder:   products/{id}/GET
                response: 200 page-2.json
                variants:
                  1 when query page=2: holds
                  2 when header authorization absent: not tried
                  3: not tried
                other routes matching the path:
                  /products/** (GET): less specific than /products/{id}

                """)
        #expect(outcome.standardError.isEmpty, "\(outcome)")
    }

    @Test("a 404 names the closest routes and exits 1")
    func textOfANotFound() async throws {
        let outcome = try await Self.explain(["GET", "/product/7"])
        #expect(outcome.exitCode == 1, "\(outcome)")
        #expect(
            outcome.standardOutput == """
                GET /product/7
                answer:   404, no route matches the path
                closest routes:
                  GET /products/**
                  GET /products/{id}

                """)
    }

    @Test(
        "--header and --body/--body-file make a variant hold",
        arguments: [
            (["GET", "/products/7"], "401 from GET /products/{id}, variant 2 of 3", 0),
            (
                ["GET", "/products/7", "--header", "Authorization: Bearer x"],
                "200 from GET /products/{id}, variant 3 of 3, response 1 of 2", 0
            ),
            (
                ["GET", "/products/7", "--header", "X-Other: 1", "--header=authorization:Bearer"],
                "200 from GET /products/{id}, variant 3 of 3", 0
            ),
            (["POST", "/orders"], "404, no variant of POST /orders holds", 1),
            (["POST", "/orders", "--body", #"{"express": true}"#], "201 from POST /orders, variant 1 of 1", 0),
            (["POST", "/orders", "--body-file", "express.json"], "201 from POST /orders, variant 1 of 1", 0),
            (["POST", "/orders", "--body", #"{"express": 1}"#], "404, no variant of POST /orders holds", 1),
        ] as [([String], String, Int32)])
    func optionsMakeAVariantHold(_ arguments: [String], _ answer: String, _ exitCode: Int32) async throws {
        let outcome = try await Self.explain(arguments, files: ["express.json": #"{"express": true}"#])
        #expect(outcome.exitCode == exitCode, "\(outcome)")
        #expect(outcome.standardOutputLines.dropFirst().first?.hasPrefix("answer:   " + answer) == true, "\(outcome)")
    }

    @Test(
        "exit codes: 0 answered, 1 for 404, 405 and 400, the path percent-decoded",
        arguments: [
            (["GET", "/products/7/8"], 0, "answer:   200 from GET /products/**, response 1 of 1"),
            (
                ["HEAD", "/products/7?page=2"], 0,
                "answer:   200 from GET /products/{id} (HEAD answered as GET, without the body), variant 1 of 3, response 1 of 1"
            ),
            (["GET", "/files/a%20b"], 0, "answer:   200 from GET /files/a b, response 1 of 1"),
            (
                ["DELETE", "/products/7"], 1,
                "answer:   405, no route matching the path has a DELETE exchange; allowed: GET, HEAD"
            ),
            (["GET", "/products/%2e%2e/x"], 1, "answer:   400, the path has a '.' or '..' segment"),
            (["GET", "/__espressomartini/health"], 1, "answer:   the admin API (/__espressomartini) answers"),
        ] as [([String], Int32, String)])
    func exitCodes(_ arguments: [String], _ exitCode: Int32, _ answerLine: String) async throws {
        let outcome = try await Self.explain(arguments)
        #expect(outcome.exitCode == exitCode, "\(outcome)")
        #expect(outcome.standardOutputLines.dropFirst().first == answerLine, "\(outcome)")
    }

    @Test("--json: the same facts as a JSON object")
    func json() async throws {
        let outcome = try await Self.explain(["GET", "/products/7", "--header", "Authorization: x", "--json"])
        #expect(outcome.exitCode == 0, "\(outcome)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any], "\(outcome)")
        #expect(object["status"] as? Int == 200)
        #expect(object["outcome"] as? String == "exchange")
        #expect(object["variant"] as? Int == 2)
        let exchange = try #require(object["exchange"] as? [String: Any])
        #expect(exchange["folder"] as? String == "products/{id}/GET")
        let response = try #require(object["response"] as? [String: Any])
        #expect(response["response_file"] as? String == "page-1.json")
        #expect(response["position"] as? Int == 0 && response["count"] as? Int == 2)
        let variants = try #require(object["variants"] as? [[String: Any]])
        #expect(variants.map { $0["result"] as? String } == ["fails", "fails", "holds"])
        #expect(variants[1]["mismatch"] as? String == #"header "authorization" is "x", expected it to be absent"#)
        let others = try #require(object["other_routes"] as? [[String: Any]])
        #expect(others.map { $0["route"] as? String } == ["/products/**"])
    }

    @Test("a broken tree exits 78 with its diagnostics, nothing on standard output")
    func brokenTree() async throws {
        let tree = try TemporaryTree(exchanges: ["a/GET/configuration.json": "{oops"])
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(["explain", "GET", "/a"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        #expect(
            outcome.standardErrorLines.contains { $0.contains("configuration.json:1:") && $0.contains(": error: ") },
            "\(outcome)")
        #expect(outcome.standardErrorLines.last?.hasSuffix("nothing explained") == true, "\(outcome)")
    }

    @Test(
        "bad arguments exit 64 with the usage",
        arguments: [
            (["GET"], "Error: Missing expected argument '<target>'"),
            ([], "Error: Missing expected argument '<method>'"),
            (["GET", "/", "--header", "no colon"], "Error: The header 'no colon' is not 'Name: value'"),
            (["GET", "/", "--header", ": value"], "Error: The header ': value' is not 'Name: value'"),
            (
                ["GET", "/", "--body", "a", "--body-file", "b"],
                "Error: Give the body with --body or --body-file, not both"
            ),
            (["GET", "/", "extra"], "Error: Unexpected argument 'extra'"),
            (["GET", "/", "--body-file", "missing.json"], "espressomartini: cannot read the body file missing.json"),
        ] as [([String], String)])
    func badArguments(_ arguments: [String], _ firstLine: String) async throws {
        let outcome = try await Self.explain(arguments)
        #expect(outcome.exitCode == 64, "\(outcome)")
        #expect(outcome.standardErrorLines.first == firstLine, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
    }

    @Test(
        "--requests-folder and --configuration choose the tree; \"admin\": false routes the admin prefix like any path")
    func sources() async throws {
        let tree = try TemporaryTree(files: [
            "elsewhere/x/GET/": .folder, "settings.json": #"{"requests_folder": "elsewhere", "admin": false}"#,
        ])
        defer { tree.remove() }
        let folder = try await ServerProcess.runToCompletion(
            ["explain", "GET", "/x", "--requests-folder", "elsewhere"], in: tree.url)
        #expect(folder.exitCode == 0, "\(folder)")
        let admin = try await ServerProcess.runToCompletion(
            ["explain", "GET", "/__espressomartini/health", "--configuration", "settings.json"], in: tree.url)
        #expect(admin.standardOutputLines.dropFirst().first == "answer:   404, no route matches the path", "\(admin)")
        #expect(admin.exitCode == 1)
    }

    /// What the server refuses before looking at the tree, explain says in the same words: a session header
    /// naming no session, and a client without the admin token.
    @Test("refusals: a session header naming no session and the admin API's token, as the server answers them; exit 1")
    func refusals() async throws {
        let tree = try TemporaryTree(
            exchanges: Self.exchanges, configuration: #"{"watch": false, "admin_token": "s3cret"}"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let name = String(repeating: "n", count: 300)
        let served = try await server.client.get("/products/7", headers: [("X-Espressomartini-Session", name)])
        #expect(served.statusCode == 400)
        let message = try #require((try served.json() as? [String: Any])?["error"] as? String)
        let explained = try await ServerProcess.runToCompletion(
            ["explain", "GET", "/products/7", "--header", "X-Espressomartini-Session: \(name)"], in: tree.url)
        #expect(explained.exitCode == 1, "\(explained)")
        #expect(explained.standardOutputLines.dropFirst().first == "answer:   400, refused: " + message, "\(explained)")

        let health = try await server.client.get("/__espressomartini/health")
        #expect(health.statusCode == 401)
        let refusal = try #require((try health.json() as? [String: Any])?["error"] as? String)
        let withoutToken = try await ServerProcess.runToCompletion(
            ["explain", "GET", "/__espressomartini/health"], in: tree.url)
        #expect(withoutToken.exitCode == 1, "\(withoutToken)")
        #expect(
            withoutToken.standardOutputLines.dropFirst().first == "answer:   401, refused: " + refusal,
            "\(withoutToken)")
        let withToken = try await ServerProcess.runToCompletion(
            ["explain", "GET", "/__espressomartini/health", "--header", "Authorization: Bearer s3cret", "--json"],
            in: tree.url
        )
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(withToken.standardOutput.utf8)) as? [String: Any],
            "\(withToken)")
        #expect(object["outcome"] as? String == "admin_api")
        let fromServer = try await server.client.get(
            "/__espressomartini/explain?method=GET&path=/__espressomartini/health",
            headers: [("Authorization", "Bearer s3cret")]
        )
        #expect((try fromServer.json() as? [String: Any])?["outcome"] as? String == "admin_api", "\(fromServer.text)")
    }
}
