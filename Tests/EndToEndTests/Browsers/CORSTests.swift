import Foundation
import Testing

/// doc/browsers-and-https.md CORS on the wire: `"cors": true` (or `--cors`) answers preflights and adds the CORS headers to
/// every answer to a request with an `Origin`.
@Suite("CORS")
struct CORSTests {
    static let exchanges: [String: TreeEntry] = [
        "users/{id}/GET/configuration.json": #"{"body": {"id": 7}, "headers": {"X-Request-Id": "r1"}}"#,
        "users/{id}/PUT/configuration.json": #"{"status_code": 204}"#,
        "file/GET/configuration.json": #"{"response_file": "data.json"}"#,
        "file/GET/data.json": .text(#"{"from": "file"}"#),
        "slow/GET/configuration.json": #"{"body": "late", "delay": 0.2}"#,
        "own/GET/configuration.json": #"{"body": "x"}"#,
        "own/OPTIONS/configuration.json":
            #"{"status_code": 200, "body": "the tree's OPTIONS", "headers": {"Access-Control-Allow-Origin": "*"}}"#,
    ]

    static let origin = ("Origin", "http://app.test:3000")
    static let preflightHeaders = [
        origin, ("Access-Control-Request-Method", "PUT"), ("Access-Control-Request-Headers", "content-type, x-token"),
    ]

    static func serving(
        _ configuration: String, _ arguments: [String] = []
    ) async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(exchanges: exchanges, configuration: configuration)
        do {
            return (tree, try await ServerProcess.serving(tree, arguments))
        } catch {
            tree.remove()
            throw error
        }
    }

    static func expectOriginHeaders(_ response: HTTPResponse, exposing exposed: String?, _ what: String) {
        #expect(response.headers(named: "Access-Control-Allow-Origin") == ["http://app.test:3000"], "\(what)")
        #expect(response.headers(named: "Access-Control-Allow-Credentials") == ["true"], "\(what)")
        #expect(response.headers(named: "Vary") == ["Origin"], "\(what)")
        #expect(response.header("Access-Control-Expose-Headers") == exposed, "\(what)")
    }

    @Test(
        "every answer to a request with an Origin echoes it: inline and file bodies, twice (built, then shared), 404, 405, a delayed one, HEAD, admin"
    )
    func originIsEchoed() async throws {
        let (tree, server) = try await Self.serving(#"{"cors": true}"#)
        defer { tree.remove() }
        defer { server.stop() }
        let client = server.client
        for round in 1...2 {
            let user = try await client.get("/users/7", headers: [Self.origin])
            #expect(user.statusCode == 200)
            #expect(user.text == #"{"id":7}"#)
            Self.expectOriginHeaders(user, exposing: "X-Request-Id, Content-Type", "inline, round \(round)")
            let file = try await client.get("/file", headers: [Self.origin])
            #expect(file.text == #"{"from": "file"}"#)
            Self.expectOriginHeaders(file, exposing: "Content-Type", "file, round \(round)")
        }
        // More origins than get a shared response of their own: each request still gets its own origin back.
        for round in 1...2 {
            for number in 1...6 {
                let origin = "https://site-\(number).test"
                let other = try await client.get("/users/7", headers: [("Origin", origin)])
                #expect(other.headers(named: "Access-Control-Allow-Origin") == [origin], "round \(round)")
                #expect(other.text == #"{"id":7}"#)
            }
        }
        let notFound = try await client.get("/nothing", headers: [Self.origin])
        #expect(notFound.statusCode == 404)
        Self.expectOriginHeaders(notFound, exposing: "Content-Type", "404")
        let notAllowed = try await client.send("DELETE", "/users/7", headers: [Self.origin])
        #expect(notAllowed.statusCode == 405)
        Self.expectOriginHeaders(notAllowed, exposing: "Allow, Content-Type", "405")
        let slow = try await client.get("/slow", headers: [Self.origin])
        #expect(slow.text == "late")
        Self.expectOriginHeaders(slow, exposing: "Content-Type", "delayed")
        let head = try await client.head("/users/7")
        #expect(head.headers(named: "Vary") == ["Origin"])
        let health = try await client.get("/__espressomartini/health", headers: [Self.origin])
        Self.expectOriginHeaders(health, exposing: "Content-Type", "admin")
    }

    @Test("without an Origin an answer only says Vary: Origin")
    func withoutOrigin() async throws {
        let (tree, server) = try await Self.serving(#"{"cors": true}"#)
        defer { tree.remove() }
        defer { server.stop() }
        for target in ["/users/7", "/users/7", "/file", "/nothing"] {
            let response = try await server.client.get(target)
            #expect(response.headers(named: "Vary") == ["Origin"], "\(target)")
            #expect(response.headers.filter { $0.name.lowercased().hasPrefix("access-control-") }.isEmpty, "\(target)")
        }
    }

    @Test(
        "a preflight is answered 204 with the route's methods, the requested headers and a max age; not an exchange's call; logged and journaled"
    )
    func preflight() async throws {
        let (tree, server) = try await Self.serving(#"{"cors": true}"#)
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.send("OPTIONS", "/users/7", headers: Self.preflightHeaders)
        #expect(response.statusCode == 204)
        #expect(response.body.isEmpty)
        #expect(response.header("Access-Control-Allow-Methods") == "GET, HEAD, PUT")
        #expect(response.header("Access-Control-Allow-Headers") == "content-type, x-token")
        #expect(response.header("Access-Control-Max-Age") == "7200")
        Self.expectOriginHeaders(response, exposing: nil, "preflight")
        let exchanges = try await server.client.get("/__espressomartini/exchanges")
        #expect(!exchanges.text.contains(#""calls":1"#), "a preflight counted as a call: \(exchanges.text)")
        let journal = try await server.client.get("/__espressomartini/requests")
        #expect(journal.text.contains(#""method":"OPTIONS""#), "\(journal.text)")
        let line = await server.waitForStandardErrorLine { $0.contains("OPTIONS /users/7") }
        #expect(line?.contains("204") == true, "\(server.standardError)")
    }

    @Test("the tree's OPTIONS exchange answers its preflights itself, and its own CORS headers win")
    func optionsExchangeWins() async throws {
        let (tree, server) = try await Self.serving(#"{"cors": true}"#)
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.send("OPTIONS", "/own", headers: Self.preflightHeaders)
        #expect(response.statusCode == 200)
        #expect(response.text == "the tree's OPTIONS")
        #expect(response.headers(named: "Access-Control-Allow-Origin") == ["*"])
        #expect(response.header("Access-Control-Allow-Methods") == nil)
        let exchanges = try await server.client.get("/__espressomartini/exchanges")
        #expect(
            exchanges.text.contains(
                #""method":"OPTIONS","route":"/own","folder":"own/OPTIONS","responses":1,"calls":1"#),
            "\(exchanges.text)")
    }

    @Test("--cors turns it on; without cors nothing changes: no CORS headers, a preflight is a 405")
    func flagAndDefault() async throws {
        let (tree, server) = try await Self.serving("{}", ["--cors"])
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await server.client.send("OPTIONS", "/users/7", headers: Self.preflightHeaders).statusCode == 204)
        let off = try await ServerProcess.serving(tree)
        defer { off.stop() }
        let preflight = try await off.client.send("OPTIONS", "/users/7", headers: Self.preflightHeaders)
        #expect(preflight.statusCode == 405)
        let user = try await off.client.get("/users/7", headers: [Self.origin])
        #expect(
            user.headers.filter { $0.name.lowercased().hasPrefix("access-control-") || $0.name == "Vary" }.isEmpty,
            "\(user.headers)")
    }
}
