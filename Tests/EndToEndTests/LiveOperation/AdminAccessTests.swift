import Foundation
import Testing

/// Who may use the admin API: loopback clients by default, clients with the token once `admin_token` is set
/// (and only they), everyone with `"admin_access": "any"`. The server listens on every address and a client
/// of this machine connects to its non-loopback address, so the server sees a client that is not on a
/// loopback address, as it would see a phone on the LAN.
@Suite(
    "Admin API access",
    .enabled(if: LocalAddress.nonLoopbackIPv4() != nil, "this machine has no non-loopback IPv4 address"))
struct AdminAccessTests {
    static let exchanges: [String: TreeEntry] = ["hello/GET/configuration.json": #"{"body": "hello"}"#]

    /// The server on every IPv4 address, and clients from loopback and from the machine's other address.
    static func serve(
        _ configuration: String?
    ) async throws -> (TemporaryTree, ServerProcess, loopback: HTTPClient, remote: HTTPClient) {
        let tree = try TemporaryTree(exchanges: exchanges, configuration: configuration)
        let server = try await ServerProcess.start(["run", "--port", "0", "--hostname", "0.0.0.0"], in: tree.url)
        let remote = HTTPClient(host: try #require(LocalAddress.nonLoopbackIPv4()), port: server.port)
        return (tree, server, HTTPClient(host: "127.0.0.1", port: server.port), remote)
    }

    @Test("by default a client that is not on a loopback address gets 403 from the admin API and the mocks as usual")
    func loopbackOnly() async throws {
        let (tree, server, loopback, remote) = try await Self.serve(nil)
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await loopback.get("/__espressomartini/health").statusCode == 200)
        let refused = try await remote.get("/__espressomartini/requests")
        #expect(refused.statusCode == 403, "\(refused.text)")
        let object = try #require(try refused.json() as? [String: String])
        #expect(
            object["error"]?.contains("admin_token") == true && object["error"]?.contains(remote.host) == true,
            "\(refused.text)")
        #expect(try await remote.send("POST", "/__espressomartini/reset").statusCode == 403)
        #expect(try await remote.get("/hello").text == "hello")
    }

    @Test(
        "with admin_token, a client with 'Authorization: Bearer TOKEN' gets in from anywhere, and one without it gets 401, loopback or not"
    )
    func token() async throws {
        let (tree, server, loopback, remote) = try await Self.serve(#"{"admin_token": "s3cr3t-token"}"#)
        defer { tree.remove() }
        defer { server.stop() }
        let bearer = [("Authorization", "Bearer s3cr3t-token")]
        #expect(try await remote.get("/__espressomartini/health", headers: bearer).statusCode == 200)
        #expect(
            try await loopback.get("/__espressomartini/health", headers: [("Authorization", "bearer s3cr3t-token")])
                .statusCode == 200)
        let missing = try await loopback.get("/__espressomartini/health")
        #expect(
            missing.statusCode == 401 && missing.header("WWW-Authenticate")?.hasPrefix("Bearer") == true,
            "\(missing.headers)")
        #expect(
            try await remote.get("/__espressomartini/health", headers: [("Authorization", "Bearer wrong")]).statusCode
                == 401)
        #expect(try await remote.get("/__espressomartini/health").statusCode == 401)
    }

    @Test("admin_access any opens the admin API to every client")
    func any() async throws {
        let (tree, server, _, remote) = try await Self.serve(#"{"admin_access": "any"}"#)
        defer { tree.remove() }
        defer { server.stop() }
        #expect(try await remote.get("/__espressomartini/health").statusCode == 200)
    }
}
