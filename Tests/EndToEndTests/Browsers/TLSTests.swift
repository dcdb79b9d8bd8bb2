import Foundation
import Glibc
import Testing

/// doc/browsers-and-https.md HTTPS: `"tls"` (or `--tls-certificate`/`--tls-key`) serves the tree over TLS with a certificate
/// made by `openssl` for the test, checked with `curl --cacert`.
@Suite("HTTPS")
struct TLSTests {
    static let exchanges: [String: TreeEntry] = [
        "hello/GET/configuration.json": #"{"body": {"hello": "tls"}}"#,
        "big/GET/configuration.json": #"{"response_file": "big.bin"}"#,
        "big/GET/big.bin": .bytes([UInt8](repeating: 0x61, count: 300_000)),
    ]

    /// A throw-away self-signed certificate for 127.0.0.1 and localhost: `NAME.pem` and `NAME-key.pem` in `folder`.
    static func makeCertificate(_ name: String, in folder: URL, key: [String] = ["-newkey", "rsa:2048"]) async throws {
        let outcome = try await ExternalTool.run(
            "openssl",
            ["req", "-x509"] + key + [
                "-nodes", "-days", "2", "-subj", "/CN=espressomartini test",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", "\(name)-key.pem", "-out",
                "\(name).pem",
            ], in: folder)
        try #require(outcome.status == 0, "openssl could not make a certificate: \(outcome)")
    }

    /// A tree whose configuration serves HTTPS with `tls/server.pem` (relative to the configuration's folder).
    static func tlsTree(extra: String = "") async throws -> TemporaryTree {
        let tree = try TemporaryTree(
            exchanges: exchanges, files: ["tls/": .folder],
            configuration: #"{"tls": {"certificate": "tls/server.pem", "key": "tls/server-key.pem"}\#(extra)}"#
        )
        try await makeCertificate("server", in: tree.url.appendingPathComponent("tls"))
        return tree
    }

    /// `curl --cacert CA https://127.0.0.1:PORT/PATH`.
    static func curl(
        _ server: ServerProcess, _ path: String, trusting ca: URL, _ extra: [String] = []
    ) async throws -> ExternalTool.Outcome {
        try await ExternalTool.run(
            "curl",
            ["-sS", "--max-time", "5", "--cacert", ca.path] + extra + ["https://127.0.0.1:\(server.port)\(path)"])
    }

    @Test("curl --cacert gets the tree over HTTPS; the listening line says https://")
    func servesOverHTTPS() async throws {
        let tree = try await Self.tlsTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(server.listeningLine.hasPrefix("espressomartini listening on https://127.0.0.1:"))
        let ca = tree.url.appendingPathComponent("tls/server.pem")
        let hello = try await Self.curl(server, "/hello", trusting: ca)
        #expect(hello.status == 0 && hello.standardOutput == #"{"hello":"tls"}"#, "\(hello)")
        let big = try await Self.curl(
            server, "/big", trusting: ca, ["-o", "/dev/null", "-w", "%{http_code} %{size_download}"])
        #expect(big.standardOutput == "200 300000", "\(big)")
        // Several requests on one kept-alive connection.
        let twice = try await Self.curl(server, "/hello", trusting: ca, ["https://127.0.0.1:\(server.port)/hello"])
        #expect(twice.standardOutput == #"{"hello":"tls"}{"hello":"tls"}"#, "\(twice)")
        let untrusted = try await ExternalTool.run(
            "curl", ["-sS", "--max-time", "5", "https://127.0.0.1:\(server.port)/hello"])
        #expect(untrusted.status != 0, "a certificate nobody trusts was accepted")
    }

    @Test("--tls-certificate and --tls-key serve HTTPS with files relative to the current folder")
    func flags() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        try await Self.makeCertificate(
            "flag", in: tree.url, key: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"])
        let server = try await ServerProcess.serving(
            tree, ["--tls-certificate", "flag.pem", "--tls-key", "flag-key.pem"])
        defer { server.stop() }
        let hello = try await Self.curl(server, "/hello", trusting: tree.url.appendingPathComponent("flag.pem"))
        #expect(hello.standardOutput == #"{"hello":"tls"}"#, "\(hello)")
    }

    struct BadFilesCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let certificate: String
        let key: String
        /// Lines expected on standard error, `$DIR` for the tree's folder.
        let errors: [String]
    }

    @Test(arguments: [
        BadFilesCase(
            testDescription: "a missing certificate", certificate: "absent.pem", key: "a-key.pem",
            errors: ["$DIR/absent.pem: error: the TLS certificate does not exist"]),
        BadFilesCase(
            testDescription: "a missing key", certificate: "a.pem", key: "absent.pem",
            errors: ["$DIR/absent.pem: error: the TLS key does not exist"]),
        BadFilesCase(
            testDescription: "a folder as the key", certificate: "a.pem", key: "network-exchanges",
            errors: ["$DIR/network-exchanges: error: the TLS key cannot be read as a file"]),
        BadFilesCase(
            testDescription: "a certificate that is no PEM", certificate: "junk.txt", key: "a-key.pem",
            errors: ["$DIR/junk.txt: error: the TLS certificate is not a PEM certificate (No certificate was found.)"]),
        BadFilesCase(
            testDescription: "a key that is no PEM key", certificate: "a.pem", key: "a.pem",
            errors: [
                "$DIR/a.pem: error: the TLS key is not an unencrypted PEM private key (The requested data were not available.)"
            ]),
        BadFilesCase(
            testDescription: "a certificate and another certificate's key", certificate: "a.pem", key: "b-key.pem",
            errors: [
                "$DIR/a.pem: error: the TLS certificate does not match the key $DIR/b-key.pem (The certificate and the given key do not match.)"
            ]),
    ])
    func badFilesAreConfigurationErrors(_ test: BadFilesCase) async throws {
        let tree = try TemporaryTree(
            exchanges: Self.exchanges, files: ["junk.txt": .text("not a certificate\n")],
            configuration: #"{"tls": {"certificate": "\#(test.certificate)", "key": "\#(test.key)"}}"#
        )
        defer { tree.remove() }
        try await Self.makeCertificate("a", in: tree.url)
        try await Self.makeCertificate("b", in: tree.url)
        let outcome = try await ServerProcess.runToCompletion(
            ["run", "--port", "0", "--configuration", tree.path + "/configuration.json"], in: tree.url)
        #expect(outcome.exitCode == 78, "\(outcome)")
        #expect(outcome.standardOutput.isEmpty)
        let expected = test.errors.map { $0.replacingOccurrences(of: "$DIR", with: tree.path) }
        #expect(Array(outcome.standardErrorLines.dropLast()) == expected, "\(outcome)")
        #expect(outcome.standardErrorLines.last == "espressomartini: 1 error; espressomartini did not start")
    }

    @Test("--tls-key without a certificate anywhere is a usage error")
    func halfAPair() async throws {
        let tree = try TemporaryTree(exchanges: Self.exchanges)
        defer { tree.remove() }
        let outcome = try await ServerProcess.runToCompletion(
            ["run", "--port", "0", "--tls-key", "key.pem"], in: tree.url)
        #expect(outcome.exitCode == 64, "\(outcome)")
        #expect(outcome.standardError.contains("HTTPS needs --tls-certificate too"), "\(outcome)")
    }

    /// The first bytes of a TLS 1.2 ClientHello record whose announced length never arrives.
    static let partialClientHello: [UInt8] =
        [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03] + [UInt8](repeating: 0x42, count: 20)

    @Test(
        "plain HTTP on the TLS port, a garbage handshake and 400 half-open handshakes: closed or left waiting, never a crash; others are served meanwhile"
    )
    func hostileClients() async throws {
        let tree = try await Self.tlsTree(extra: #", "connection_timeout": 3"#)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let ca = tree.url.appendingPathComponent("tls/server.pem")
        var client = server.client
        client.timeout = 5

        let plain = try await client.sendRaw(client.requestBytes("GET", "/hello"))
        #expect(!String(decoding: plain, as: UTF8.self).contains("tls"), "plain HTTP was answered with the tree")
        var garbage: [UInt8] = [0x16, 0x03, 0x03, 0x00, 0x40]
        garbage += (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        _ = try await client.sendRaw(garbage)
        _ = try await client.sendRaw((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 131) })

        // Room for 400 more descriptors in this process, which other tests share.
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4096 {
            limit.rlim_cur = min(4096, limit.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let (host, port) = (client.host, client.port)
        let halfOpen = try await BlockingCall.run {
            try (0..<400).map { _ in
                let connection = try HTTPConnection(host: host, port: port, timeout: 5)
                try connection.write(Self.partialClientHello)
                return connection
            }
        }
        defer { halfOpen.forEach { $0.close() } }
        for _ in 0..<3 {
            let hello = try await Self.curl(server, "/hello", trusting: ca)
            #expect(hello.standardOutput == #"{"hello":"tls"}"#, "\(hello)")
        }
        #expect(server.isRunning)
    }

    @Test("SIGHUP puts a renewed certificate in service; a broken renewal keeps the last good one")
    func renewalOnHangUp() async throws {
        let tree = try await Self.tlsTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let folder = tree.url.appendingPathComponent("tls")
        try FileManager.default.copyItem(
            at: folder.appendingPathComponent("server.pem"), to: tree.url.appendingPathComponent("first.pem"))
        let first = tree.url.appendingPathComponent("first.pem")
        #expect(try await Self.curl(server, "/hello", trusting: first).status == 0)

        try await Self.makeCertificate("renewed", in: folder)
        for name in ["", "-key"] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("server\(name).pem"))
            try FileManager.default.moveItem(
                at: folder.appendingPathComponent("renewed\(name).pem"),
                to: folder.appendingPathComponent("server\(name).pem"))
        }
        let renewed = folder.appendingPathComponent("server.pem")
        #expect(
            try await Self.curl(server, "/hello", trusting: renewed).status != 0,
            "the renewed certificate was served before SIGHUP")
        server.send(signal: SIGHUP)
        let line = await server.waitForStandardErrorLine { $0.contains("reloaded the TLS certificate") }
        #expect(line != nil, "\(server.standardError)")
        let after = try await Self.curl(server, "/hello", trusting: renewed)
        #expect(after.standardOutput == #"{"hello":"tls"}"#, "\(after)")
        #expect(
            try await Self.curl(server, "/hello", trusting: first).status != 0, "the old certificate is still served")

        try Data("broken\n".utf8).write(to: folder.appendingPathComponent("server-key.pem"))
        server.send(signal: SIGHUP)
        let kept = await server.waitForStandardErrorLine { $0.contains("still serving the last good one") }
        #expect(kept != nil, "\(server.standardError)")
        #expect(try await Self.curl(server, "/hello", trusting: renewed).standardOutput == #"{"hello":"tls"}"#)
    }
}
