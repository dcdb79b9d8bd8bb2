import Foundation
import Testing

/// Exchanges a test declares over the admin API (SPEC §21, doc/admin-api.md): added, served beside the
/// tree with its precedence, counted apart, listed, removed, kept across reloads, limited, refused with
/// every problem; and `requests/verify` with its reasons. Against the real binary.
@Suite("runtime exchanges")
struct RuntimeExchangeTests {
    static let exchanges: [String: TreeEntry] = [
        "api/v1/users/{id}/GET/configuration.json": #"{"body": "tree pattern"}"#,
        "api/v1/users/me/GET/configuration.json": #"{"body": "tree me"}"#,
        "api/v1/orders/POST/configuration.json": #"[{"status_code": 201, "body": "first"}, {"body": "second"}]"#,
        "api/v1/logo/GET/configuration.json":
            #"{"body_base64": "iVBORw0KGgo=", "headers": {"Content-Type": "image/png"}}"#,
        "files/hello.txt": "hello from a file",
    ]
    static let configuration = #"{"watch": false, "log_level": "ERROR"}"#
    static let json = [("Content-Type", "application/json")]
    static let admin = "/__espressomartini"

    static func start(configuration: String = configuration) async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(exchanges: exchanges, configuration: configuration)
        do {
            return (tree, try await ServerProcess.serving(tree))
        } catch {
            tree.remove()
            throw error
        }
    }

    @discardableResult
    static func add(_ server: ServerProcess, _ body: String, session: String? = nil) async throws -> HTTPResponse {
        try await server.client.send(
            "POST", admin + "/exchanges" + (session.map { "?session=\($0)" } ?? ""), headers: json,
            body: Array(body.utf8))
    }

    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try response.json() as? [String: Any], "not a JSON object: \(response.text)")
    }

    static func list(_ server: ServerProcess, query: String = "") async throws -> [[String: Any]] {
        let response = try await server.client.get(admin + "/exchanges" + query)
        return try #require(try response.json() as? [[String: Any]], "not a JSON array: \(response.text)")
    }

    static func get(_ server: ServerProcess, _ path: String, session: String? = nil) async throws -> String {
        let headers = session.map { [("X-Espressomartini-Session", $0)] } ?? []
        return try await server.client.get(path, headers: headers).text
    }

    @Test("an exchange added is served at once, answers 201 with its id and Location, and is listed")
    func addServeList() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        let added = try await Self.add(
            server,
            #"{"method": "GET", "route": "/api/v1/cart", "configuration": {"status_code": 202, "body": {"items": 3}}}"#)
        #expect(added.statusCode == 201, "\(added.text)")
        let body = try Self.object(added)
        #expect(body["id"] as? String == "r1")
        #expect(body["method"] as? String == "GET")
        #expect(body["route"] as? String == "/api/v1/cart")
        #expect(body["session"] is NSNull)
        #expect(added.header("Location") == "/__espressomartini/exchanges/r1")

        let answer = try await server.client.get("/api/v1/cart")
        #expect(answer.statusCode == 202)
        #expect(answer.text == #"{"items":3}"#)
        #expect(answer.header("Content-Type") == "application/json")

        let listed = try await Self.list(server)
        let runtime = try #require(listed.first { $0["source"] as? String == "runtime" })
        #expect(runtime["id"] as? String == "r1")
        #expect(runtime["route"] as? String == "/api/v1/cart")
        #expect(runtime["calls"] as? Int == 1)
        #expect(runtime["session"] is NSNull)
        #expect(listed.filter { $0["source"] as? String == "tree" }.count == 4)
        let health = try Self.object(try await server.client.get(Self.admin + "/health"))
        #expect(health["runtime_exchanges"] as? Int == 1)
    }

    @Test("precedence: session over server-wide over tree for the same requests; a literal beats {x} across them")
    func precedence() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        #expect(try await Self.get(server, "/api/v1/users/7") == "tree pattern")
        try await Self.add(
            server, #"{"method": "GET", "route": "/api/v1/users/:uid", "configuration": {"body": "everyone"}}"#)
        try await Self.add(
            server, #"{"method": "GET", "route": "/api/v1/users/*", "configuration": {"body": "session a"}}"#,
            session: "a")
        #expect(try await Self.get(server, "/api/v1/users/7") == "everyone")
        #expect(try await Self.get(server, "/api/v1/users/7", session: "a") == "session a")
        #expect(try await Self.get(server, "/api/v1/users/7", session: "b") == "everyone")
        // The tree's literal route beats every runtime `{x}`; a runtime literal beats the tree's pattern.
        #expect(try await Self.get(server, "/api/v1/users/me", session: "a") == "tree me")
        try await Self.add(
            server, #"{"method": "GET", "route": "/api/v1/users/42", "configuration": {"body": "forty-two"}}"#)
        #expect(try await Self.get(server, "/api/v1/users/42", session: "a") == "forty-two")
        // HEAD is answered by the GET exchange chosen the same way, and 405 lists every tree's methods.
        let head = try await server.client.head("/api/v1/users/42")
        #expect(head.statusCode == 200)
        #expect(head.contentLength == 9)
        try await Self.add(
            server, #"{"method": "DELETE", "route": "/api/v1/users/{id}", "configuration": {"status_code": 204}}"#)
        let put = try await server.client.send("PUT", "/api/v1/users/7")
        #expect(put.statusCode == 405)
        #expect(put.header("Allow") == "GET, HEAD, DELETE")
    }

    @Test("a runtime exchange counts apart from the tree's and per session; reset resets it")
    func ownCounters() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        #expect(try await server.client.send("POST", "/api/v1/orders").text == "first")
        try await Self.add(
            server,
            #"{"method": "POST", "route": "/api/v1/orders", "configuration": [{"body": "one"}, {"body": "two"}]}"#,
            session: "a")
        #expect(
            try await server.client.send("POST", "/api/v1/orders", headers: [("X-Espressomartini-Session", "a")]).text
                == "one")
        #expect(
            try await server.client.send("POST", "/api/v1/orders", headers: [("X-Espressomartini-Session", "a")]).text
                == "two")
        #expect(try await server.client.send("POST", "/api/v1/orders").text == "second", "the tree's sequence goes on")

        let listed = try await Self.list(server)
        #expect(listed.first { $0["id"] as? String == "r1" }?["calls"] as? Int == 2)
        #expect(
            listed.first { $0["source"] as? String == "tree" && $0["method"] as? String == "POST" }?["calls"] as? Int
                == 2)
        let sessionB = try await Self.list(server, query: "?session=b")
        #expect(!sessionB.contains { $0["id"] as? String == "r1" }, "session b does not see session a's exchange")

        let reset = try await server.client.send("POST", Self.admin + "/reset?session=a")
        #expect(reset.statusCode == 204)
        #expect(
            try await server.client.send("POST", "/api/v1/orders", headers: [("X-Espressomartini-Session", "a")]).text
                == "one")
        let byRoute = try await server.client.send("POST", Self.admin + "/reset?method=POST&route=%2Fapi%2Fv1%2Forders")
        #expect(byRoute.statusCode == 204)
        #expect(try await server.client.send("POST", "/api/v1/orders").text == "first")
    }

    @Test("removed one by one, by session, or all: 204, an unknown id 404")
    func removal() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        try await Self.add(server, #"{"method": "GET", "route": "/x", "configuration": {"body": "x"}}"#)
        try await Self.add(server, #"{"method": "GET", "route": "/y", "configuration": {"body": "y a"}}"#, session: "a")
        try await Self.add(server, #"{"method": "GET", "route": "/y", "configuration": {"body": "y b"}}"#, session: "b")
        #expect(try await Self.list(server).filter { $0["source"] as? String == "runtime" }.count == 3)

        #expect(try await server.client.send("DELETE", Self.admin + "/exchanges/r1").statusCode == 204)
        #expect(try await server.client.get("/x").statusCode == 404)
        let again = try await server.client.send("DELETE", Self.admin + "/exchanges/r1")
        #expect(again.statusCode == 404)
        #expect(try Self.object(again)["error"] as? String == "no runtime exchange r1; known: r2, r3")
        #expect(try await server.client.send("DELETE", Self.admin + "/exchanges/nonsense").statusCode == 404)

        #expect(try await server.client.send("DELETE", Self.admin + "/exchanges?session=a").statusCode == 204)
        #expect(try await server.client.get("/y", headers: [("X-Espressomartini-Session", "a")]).statusCode == 404)
        #expect(try await Self.get(server, "/y", session: "b") == "y b")
        #expect(try await server.client.send("DELETE", Self.admin + "/exchanges").statusCode == 204)
        #expect(try await server.client.get("/y", headers: [("X-Espressomartini-Session", "b")]).statusCode == 404)
        #expect(try await Self.list(server).allSatisfy { $0["source"] as? String == "tree" })
    }

    @Test("a reload of the tree keeps runtime exchanges and their counts")
    func keptAcrossReloads() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        try await Self.add(
            server, #"{"method": "GET", "route": "/poll", "configuration": [{"body": "pending"}, {"body": "done"}]}"#)
        #expect(try await Self.get(server, "/poll") == "pending")
        try tree.write(#"{"body": "tree me, edited"}"#, at: "network-exchanges/api/v1/users/me/GET/configuration.json")
        let reload = try await server.client.send("POST", Self.admin + "/reload")
        #expect(reload.statusCode == 200)
        #expect(try await Self.get(server, "/api/v1/users/me") == "tree me, edited")
        #expect(try await Self.get(server, "/poll") == "done")
    }

    @Test("past max_runtime_exchanges 429 names the key; session ones count too; nothing is added")
    func limit() async throws {
        let (tree, server) = try await Self.start(configuration: #"{"watch": false, "max_runtime_exchanges": 2}"#)
        defer { server.stop(); tree.remove() }

        #expect(try await Self.add(server, #"{"method": "GET", "route": "/a"}"#).statusCode == 201)
        #expect(try await Self.add(server, #"{"method": "GET", "route": "/b"}"#, session: "s").statusCode == 201)
        let refused = try await Self.add(server, #"{"method": "GET", "route": "/c"}"#)
        #expect(refused.statusCode == 429)
        #expect((try Self.object(refused)["error"] as? String)?.contains("max_runtime_exchanges") == true)
        #expect(try await server.client.get("/c").statusCode == 404)
        // Without a configuration, an exchange answers 200 with no body.
        let plain = try await server.client.get("/a")
        #expect(plain.statusCode == 200)
        #expect(plain.body.isEmpty)
    }

    @Test("a bad exchange is refused with every problem positioned in the body, and nothing of it is added")
    func refusals() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        let body = """
            {"method": "GET", "rout": "/a",
             "configuration": {"status_code": "x", "body_base64": "not base64!"}}
            """
        let refused = try await Self.add(server, body)
        #expect(refused.statusCode == 400)
        let errors = try #require(try Self.object(refused)["errors"] as? [String])
        #expect(
            errors.contains(
                "request body:1:19: error: unknown key 'rout'; the body takes 'method', 'route' and 'configuration'; did you mean 'route'?"
            ), "\(errors)")
        #expect(errors.contains { $0.hasPrefix("request body:1:1: error: the body has no 'route'") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("request body:2:35: error: 'status_code'") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("request body:2:") && $0.contains("base64") }, "\(errors)")

        for (route, problem) in [
            ("/a/**/b", "'**' must be the last path component"), ("/__espressomartini/x", "the admin API's"),
        ] {
            let response = try await Self.add(server, #"{"method": "GET", "route": "\#(route)"}"#)
            #expect(response.statusCode == 400)
            #expect((try Self.object(response)["error"] as? String)?.contains(problem) == true, "\(response.text)")
        }
        let badMethod = try await Self.add(server, #"{"method": "FETCH", "route": "/a"}"#)
        #expect(badMethod.statusCode == 400)
        let notJSON = try await Self.add(server, #"{"method": "GET", "#)
        #expect(notJSON.statusCode == 400)
        #expect((try Self.object(notJSON)["error"] as? String)?.hasPrefix("request body:1:") == true)
        let outside = try await Self.add(
            server, #"{"method": "GET", "route": "/f", "configuration": {"response_file": "../../etc/passwd"}}"#)
        #expect(outside.statusCode == 400, "\(outside.text)")

        var big = Array(#"{"method": "GET", "route": "/big", "configuration": {"body": ""#.utf8)
        big += [UInt8](repeating: UInt8(ascii: "a"), count: 1_048_576) + Array(#""}}"#.utf8)
        let tooBig = try await server.client.send("POST", Self.admin + "/exchanges", headers: Self.json, body: big)
        #expect(tooBig.statusCode == 413)
        #expect(try await Self.list(server).allSatisfy { $0["source"] as? String == "tree" })
    }

    @Test("files named resolve against the requests folder; body_base64 gives exact bytes, in the tree too")
    func filesAndBinaryBodies() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        let added = try await Self.add(
            server, #"{"method": "GET", "route": "/hello", "configuration": {"response_file": "files/hello.txt"}}"#)
        #expect(added.statusCode == 201, "\(added.text)")
        #expect(try await Self.get(server, "/hello") == "hello from a file")

        try await Self.add(
            server, #"{"method": "GET", "route": "/bytes", "configuration": {"body_base64": "AAEC/w=="}}"#)
        let bytes = try await server.client.get("/bytes")
        #expect(bytes.body == [0, 1, 2, 255])
        #expect(bytes.header("Content-Type") == "application/octet-stream")

        let logo = try await server.client.get("/api/v1/logo")
        #expect(logo.body == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        #expect(logo.header("Content-Type") == "image/png")
    }

    @Test("a script of a runtime exchange answers beside the tree's script, each with its own source")
    func scriptsOfBothTrees() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        try tree.write(
            #"{"javascript": "function response(request) { return Response.ok(Body.text('tree ' + request.pathParameters.id)); }"}"#,
            at: "network-exchanges/scripted/{id}/GET/configuration.json")
        #expect(try await server.client.send("POST", Self.admin + "/reload").statusCode == 200)
        let added = try await Self.add(
            server,
            #"{"method": "GET", "route": "/stubbed/{id}", "configuration": {"javascript": "function response(request) { return Response.ok(Body.text('runtime ' + request.pathParameters.id)); }"}}"#
        )
        #expect(added.statusCode == 201, "\(added.text)")
        for call in 0..<20 {
            #expect(try await Self.get(server, "/scripted/\(call)") == "tree \(call)")
            #expect(try await Self.get(server, "/stubbed/\(call)") == "runtime \(call)")
        }
    }

    @Test("explain and a 404's closest see runtime exchanges")
    func explainAndClosest() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        try await Self.add(
            server, #"{"method": "GET", "route": "/api/v1/users/{name}", "configuration": {"body": "mine"}}"#,
            session: "a")
        let explained = try Self.object(
            try await server.client.get(Self.admin + "/explain?method=GET&path=/api/v1/users/7&session=a"))
        let exchange = try #require(explained["exchange"] as? [String: Any])
        #expect(exchange["source"] as? String == "runtime")
        #expect(exchange["id"] as? String == "r1")
        #expect(exchange["session"] as? String == "a")
        let others = try #require(explained["other_routes"] as? [[String: Any]])
        #expect(others.first?["route"] as? String == "/api/v1/users/{id}")
        #expect(others.first?["reason"] as? String == "overridden")

        try await Self.add(server, #"{"method": "GET", "route": "/api/v2/catalogue"}"#)
        let miss = try Self.object(try await server.client.get("/api/v2/catalog"))
        #expect((miss["closest"] as? [String])?.first == "GET /api/v2/catalogue")
    }

    @Test("verify says whether the count holds and, when not, the closest requests and what each missed")
    func verify() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        _ = try await server.client.send(
            "POST", "/api/v1/orders", headers: Self.json, body: Array(#"{"customer": {"tier": "silver"}}"#.utf8))
        _ = try await server.client.get("/api/v1/users/7")
        func verify(_ body: String) async throws -> [String: Any] {
            let response = try await server.client.send(
                "POST", Self.admin + "/requests/verify", headers: Self.json, body: Array(body.utf8))
            #expect(response.statusCode == 200, "\(response.text)")
            return try Self.object(response)
        }
        let holds = try await verify(#"{"method": "POST", "path": "/api/v1/orders", "count": {"exactly": 1}}"#)
        #expect(holds["holds"] as? Bool == true)
        #expect(holds["count"] as? Int == 1)

        let fails = try await verify(
            #"{"method": "POST", "path": "/api/v1/orders", "when": {"json": {"/customer/tier": "gold"}}, "count": {"exactly": 1}}"#
        )
        #expect(fails["holds"] as? Bool == false)
        #expect(fails["count"] as? Int == 0)
        #expect(fails["expected"] as? String == "exactly 1")
        let closest = try #require(fails["closest"] as? [[String: Any]])
        #expect(closest.first?["mismatch"] as? String == #"json "/customer/tier" is "silver", expected "gold""#)
        #expect(
            fails["message"] as? String
                == #"expected exactly 1 request POST /api/v1/orders when json /customer/tier=gold, 0 matched; closest: POST /api/v1/orders: json "/customer/tier" is "silver", expected "gold""#
        )
        let never = try await verify(#"{"method": "GET", "path": "/api/v1/users/{id}", "count": {"at_most": 0}}"#)
        #expect(never["holds"] as? Bool == false)
        let otherMethod = try await verify(#"{"method": "DELETE", "path": "/api/v1/users/7"}"#)
        #expect(
            (otherMethod["closest"] as? [[String: Any]])?.first?["mismatch"] as? String == "method GET, expected DELETE"
        )

        let bad = try await server.client.send(
            "POST", Self.admin + "/requests/verify", headers: Self.json,
            body: Array(#"{"count": {"exactley": 1}}"#.utf8))
        #expect(bad.statusCode == 400)
        #expect((try Self.object(bad)["error"] as? String)?.contains("did you mean 'exactly'?") == true, "\(bad.text)")
    }

    @Test("adding and removing while requests are in flight never fails one nor shows half a change")
    func changesUnderLoad() async throws {
        let (tree, server) = try await Self.start()
        defer { server.stop(); tree.remove() }

        let client = server.client
        let finished = FinishedFlag()
        let changes = Task.detached {
            defer { finished.set() }
            for round in 0..<40 {
                _ = try await Self.add(
                    server,
                    #"{"method": "GET", "route": "/api/v1/users/:uid", "configuration": {"body": "runtime \#(round)"}}"#
                )
                if round % 2 == 1 { _ = try await client.send("DELETE", Self.admin + "/exchanges") }
            }
        }
        // Batches of parallel requests for as long as the changes go on (at least 8, at most 500).
        var answers: [HTTPResponse] = []
        var batches = 0
        var changing = true
        while batches < 8 || (changing && batches < 500) {
            let batch = try await ParallelRequests.start(16, client: client, target: "/api/v1/users/7")
            answers += try await batch.results().map { try $0.get() }
            batches += 1
            if finished.isSet { changing = false }
        }
        try await changes.value
        #expect(answers.count == batches * 16)
        #expect(answers.contains { $0.text.hasPrefix("runtime ") }, "some requests saw a runtime exchange")
        for answer in answers {
            #expect(answer.statusCode == 200)
            #expect(answer.text == "tree pattern" || answer.text.hasPrefix("runtime "), "\(answer.text)")
        }
    }
}

/// Set once by one task, read by another (an `NSLock`, which the thread sanitizer understands).
final class FinishedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
