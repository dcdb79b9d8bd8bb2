import Foundation
import Glibc
import Testing

/// doc/variants.md against the real server: variants chosen by query, headers, cookies, path, body, JSON, form and
/// GraphQL; each variant's own counter; the 404 that says why; bodies kept only as far as needed.
@Suite("variants")
struct VariantServingTests {
    static let exchanges: [String: TreeEntry] = [
        "products/GET/configuration.json": #"""
        {"variants": [
          {"when": {"query": {"page": "2"}}, "responses": {"body": "page 2"}},
          {"when": {"headers": {"Accept-Language": {"prefix": "fr"}}, "cookies": {"theme": "dark"}}, "responses": {"body": "sombre"}},
          {"responses": [{"body": "page 1"}, {"body": "page 1 again"}]}
        ]}
        """#,
        "login/POST/configuration.json": #"""
        {"variants": [
          {"when": {"json": {"/user/password": "espresso"}}, "responses": {"status_code": 200, "body": {"token": "t-1"}}},
          {"when": {"form": {"password": "espresso"}}, "responses": {"status_code": 200, "body": "form ok"}},
          {"when": {"body": {"regex": "(?s).*espresso.*"}}, "responses": {"status_code": 202, "body": "somewhere"}},
          {"when": {"headers": {"Content-Type": {"present": true}}}, "responses": {"status_code": 401, "body": "wrong password"}}
        ]}
        """#,
        "users/{id}/GET/configuration.json":
            #"{"variants": [{"when": {"path": {"id": {"regex": "\\d+"}}}, "responses": {"body": "a number"}}]}"#,
        "graphql/GET/configuration.json":
            #"{"variants": [{"when": {"graphql": {"operation": "Cart", "type": "query"}}, "responses": {"body": "cart"}}]}"#,
    ]

    static func serve(_ configuration: String? = nil) async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(exchanges: exchanges, configuration: configuration)
        return (tree, try await ServerProcess.serving(tree))
    }

    @Test(
        "each kind of condition picks its variant",
        arguments: [
            ("GET", "/products?page=2", [], nil, 200, "page 2"),
            ("GET", "/products?page=3", [], nil, 200, "page 1"),
            ("GET", "/products", [("Accept-Language", "fr-CH"), ("Cookie", "lang=x; theme=dark")], nil, 200, "sombre"),
            (
                "POST", "/login", [("Content-Type", "application/json")], #"{"user": {"password": "espresso"}}"#, 200,
                #"{"token":"t-1"}"#
            ),
            (
                "POST", "/login", [("Content-Type", "application/x-www-form-urlencoded")], "user=ada&password=espresso",
                200, "form ok"
            ),
            ("POST", "/login", [("Content-Type", "text/plain")], "a long\nletter about espresso", 202, "somewhere"),
            (
                "POST", "/login", [("Content-Type", "application/json")], #"{"user": {"password": "latte"}}"#, 401,
                "wrong password"
            ),
            ("POST", "/login", [("Content-Type", "application/json")], "{not json", 401, "wrong password"),
            ("GET", "/users/42", [], nil, 200, "a number"),
            ("GET", "/graphql?query=query+Cart+%7B+items+%7D", [], nil, 200, "cart"),
        ] as [(String, String, [(String, String)], String?, Int, String)])
    func conditions(
        _ method: String, _ target: String, _ headers: [(String, String)], _ body: String?, _ status: Int,
        _ text: String
    ) async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.send(method, target, headers: headers, body: body.map { Array($0.utf8) })
        #expect(response.statusCode == status, "\(method) \(target): \(response.text)")
        #expect(response.text == text)
    }

    @Test("no variant holds: 404 with the route and each variant's first failing condition")
    func noVariantHolds() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.send("POST", "/login", body: Array("password=latte".utf8))
        #expect(response.statusCode == 404)
        #expect(response.header("Content-Type") == "application/json")
        let object = try #require(try response.json() as? [String: Any])
        #expect(object["route"] as? String == "/login")
        let mismatches = try #require(object["mismatches"] as? [String])
        #expect(mismatches.count == 4)
        #expect(mismatches[0].hasPrefix("variant 1: json \"/user/password\""), "\(mismatches)")
        #expect(mismatches[1] == #"variant 2: form "password" is "latte", expected "espresso""#)
        #expect(mismatches[3].hasPrefix("variant 4: header \"content-type\" is missing"), "\(mismatches)")
        let notFound = try await server.client.send("GET", "/users/ada")
        #expect(notFound.statusCode == 404)
        #expect(notFound.text.contains(#"variant 1: path \"id\" is \"ada\""#), "\(notFound.text)")
    }

    @Test("each variant has its own counter; the admin API shows them, the journal and the access log name the variant")
    func countersPerVariant() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.get("/products").text == "page 1")
        #expect(try await server.client.get("/products?page=2").text == "page 2")
        #expect(try await server.client.get("/products").text == "page 1 again")
        let exchanges = try #require(
            try await server.client.get("/__espressomartini/exchanges").json() as? [[String: Any]])
        let products = try #require(exchanges.first { $0["route"] as? String == "/products" })
        #expect(products["calls"] as? Int == 3)
        let variants = try #require(products["variants"] as? [[String: Any]])
        #expect(variants.map { $0["calls"] as? Int } == [1, 0, 2])
        #expect(
            variants.map { $0["when"] as? String } == [
                "query page=2", "header accept-language starts with fr, cookie theme=dark", "",
            ])
        let journal = try #require(
            try await server.client.get("/__espressomartini/requests").json() as? [[String: Any]])
        #expect(journal.map { $0["variant"] as? Int } == [2, 0, 2])
        #expect(journal.map { $0["response"] as? Int } == [0, 0, 1])
        #expect(
            await server.waitForStandardErrorLine { $0.contains("GET /products 200 GET /products variant 3 2/2 ") }
                != nil)
    }

    @Test("counters survive a reload per method, route and variant position")
    func countersSurviveReloads() async throws {
        let (tree, server) = try await Self.serve(#"{"watch": false}"#)
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.get("/products").text == "page 1")
        try tree.write(
            .text(
                #"{"variants": [{"when": {"query": {"page": "2"}}, "responses": {}}, {"when": {"query": {"x": "1"}}, "responses": {}}, {"responses": [{"body": "one"}, {"body": "two"}]}]}"#
            ), at: "network-exchanges/products/GET/configuration.json")
        #expect(try await server.client.send("POST", "/__espressomartini/reload").statusCode == 200)
        #expect(try await server.client.get("/products").text == "two")
    }

    @Test(
        "garbage query strings are matched as given and never crash",
        arguments: ["page=%zz", "page=%", "&&==", "page=2%", "%%%&page=2", "page=%00"])
    func garbageQueries(_ query: String) async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.get("/products?" + query)
        #expect(response.statusCode == 200)
        #expect(response.text == (query == "%%%&page=2" ? "page 2" : "page 1"), "\(query)")
        #expect(try await server.client.get("/__espressomartini/health").statusCode == 200)
    }

    @Test("a 512 MiB upload to an exchange that reads the body keeps only its first MiB: memory stays bounded")
    func hugeUploadToAVariant() async throws {
        let (tree, server) = try await Self.serve(#"{"watch": false}"#)
        defer { tree.remove() }
        defer { server.stop() }
        let (pid, client) = (server.pid, server.client)
        let before = try #require(ProcessStatus.residentKiB(pid))
        let size = 512 * 1024 * 1024, chunk = [UInt8](repeating: UInt8(ascii: "e"), count: 1024 * 1024)
        let (raw, peak) = try await BlockingCall.run {
            let connection = try HTTPConnection(host: client.host, port: client.port, timeout: 30)
            defer { connection.close() }
            try connection.write(
                Array(
                    "POST /login HTTP/1.1\r\nHost: \(client.authority)\r\nContent-Type: application/json\r\nContent-Length: \(size)\r\nConnection: close\r\n\r\n"
                        .utf8))
            var peak = before
            for index in 0..<(size / chunk.count) {
                try connection.write(chunk)
                if index % 16 == 0, let resident = ProcessStatus.residentKiB(pid) { peak = max(peak, resident) }
            }
            return (try connection.readToEnd(), peak)
        }
        let response = try HTTPResponse(raw: raw)
        // Past 1 MiB, body, JSON and form conditions fail; the header condition still holds.
        #expect(response.statusCode == 401, "\(response.text)")
        let grown = max(peak, ProcessStatus.residentKiB(pid) ?? 0) - before
        #expect(grown < 64 * 1024, "the server grew by \(grown) KiB while taking a 512 MiB upload")
        #expect(try await client.get("/__espressomartini/health").statusCode == 200)
    }
}
