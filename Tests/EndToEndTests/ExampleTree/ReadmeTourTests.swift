import Foundation
import Testing

/// The README's tour, against a copy of the repository's example tree and configuration: each answer the
/// README shows, so that the front door never shows what the server no longer does.
@Suite("the README tour on the example tree")
struct ReadmeTourTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The example tree and its configuration, copied into a temporary folder, served on a free port.
    static func serve() async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(files: [:])
        let fileManager = FileManager.default
        try fileManager.removeItem(at: tree.url.appendingPathComponent(TemporaryTree.requestsFolder))
        for name in [TemporaryTree.requestsFolder, "configuration.json"] {
            try fileManager.copyItem(
                at: repository.appendingPathComponent(name), to: tree.url.appendingPathComponent(name))
        }
        return (tree, try await ServerProcess.serving(tree, ["--port", "0"]))
    }

    @Test(
        "products, variants, pages, sequences, templates, sessions, scripts, the 404 and the count, as the README shows them"
    )
    func tour() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let client = server.client

        let product = try #require(try await client.get("/api/v1/products/1").json() as? [String: Any])
        #expect(product["name"] as? String == "House espresso blend, 1 kg")
        #expect(try await client.get("/api/v1/products/999").text.contains("product_not_found"))

        let json = [("Content-Type", "application/json")]
        let login = try await client.send(
            "POST", "/api/v1/login", headers: json,
            body: Array(#"{"email":"ada@example.com","password":"espresso"}"#.utf8))
        #expect(login.statusCode == 200 && login.text.contains("Ada Lovelace"), "\(login.text)")
        let refused = try await client.send(
            "POST", "/api/v1/login", headers: json, body: Array(#"{"email":"ada@example.com","password":"latte"}"#.utf8)
        )
        #expect(refused.statusCode == 401 && refused.text.contains("invalid_credentials"), "\(refused.text)")
        #expect(try await client.get("/api/v1/products?page=2").text.contains("Martini glasses"))

        var polls: [Int] = []
        for _ in 1...4 { polls.append(try await client.get("/api/v1/exports/exp-7").statusCode) }
        #expect(polls == [202, 202, 200, 200])

        let order = try await client.send("PUT", "/api/v1/orders/A-42", body: Array(#"{"note": "extra foam"}"#.utf8))
        #expect(
            order.statusCode == 201 && order.header("Location") == "/api/v1/orders/A-42",
            "\(order.statusCode) \(order.text)")
        #expect(order.text.contains(#""note":"extra foam""#), "\(order.text)")

        for run in ["a", "b"] {
            #expect(
                try await client.get("/api/v1/exports/exp-7", headers: [("X-Espressomartini-Session", "run-\(run)")])
                    .statusCode == 202)
        }

        let anonymous = try await client.get("/api/v1/me")
        #expect(
            anonymous.statusCode == 401 && anonymous.text.contains("not_logged_in"),
            "\(anonymous.statusCode) \(anonymous.text)")
        let session = try await client.send(
            "POST", "/api/v1/session", headers: json, body: Array(#"{"username":"ada","password":"espresso"}"#.utf8))
        #expect(session.statusCode == 201, "\(session.statusCode) \(session.text)")
        let cart = try await client.send(
            "POST", "/api/v1/me/cart", headers: json, body: Array(#"{"id":"espresso-cup","quantity":2}"#.utf8))
        #expect(cart.text == #"{"user":"ada","items":{"espresso-cup":2}}"#, "\(cart.text)")
        #expect(try await client.get("/api/v1/me").statusCode == 200)

        let missing = try await client.get("/api/v1/orders")
        #expect(
            missing.statusCode == 404 && missing.text.contains(#""closest":["GET /api/v1/products""#), "\(missing.text)"
        )
        let count = try await client.send(
            "POST", "/__espressomartini/requests/count", headers: json,
            body: Array(#"{"method": "POST", "path": "/api/v1/login"}"#.utf8))
        #expect(count.text == #"{"count":2,"complete":true}"#, "\(count.text)")

        let stub = try await client.send(
            "POST", "/__espressomartini/exchanges", headers: json,
            body: Array(
                #"{"method": "GET", "route": "/api/v1/orders", "configuration": {"body": [{"id": "A-42", "status": "paid"}]}}"#
                    .utf8))
        #expect(stub.text == #"{"id":"r1","method":"GET","route":"/api/v1/orders","session":null}"#, "\(stub.text)")
        #expect(try await client.get("/api/v1/orders").text == #"[{"id":"A-42","status":"paid"}]"#)
        let verify = try await client.send(
            "POST", "/__espressomartini/requests/verify", headers: json,
            body: Array(
                #"{"method": "GET", "path": "/api/v1/orders", "when": {"query": {"status": "paid"}}, "count": {"exactly": 1}}"#
                    .utf8))
        let message = try #require(try verify.json() as? [String: Any])["message"] as? String
        #expect(
            message
                == #"expected exactly 1 request GET /api/v1/orders when query status=paid, 0 matched; closest: GET /api/v1/orders: query "status" is missing, expected "paid""#
        )
        #expect(try await client.send("DELETE", "/__espressomartini/exchanges").statusCode == 204)
        #expect(try await client.get("/api/v1/orders").statusCode == 404)
    }
}
