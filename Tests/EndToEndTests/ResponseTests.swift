import Foundation
import Glibc
import Testing

/// doc/tree.md: what a method folder's `configuration.json` makes the server send.
@Suite("responses")
struct ResponseTests {
    @Test("status codes are sent as configured")
    func statusCodes() async throws {
        let codes = [200, 201, 202, 301, 400, 418, 451, 500, 503, 599]
        var exchanges: [String: TreeEntry] = [:]
        for code in codes {
            exchanges["s\(code)/GET/configuration.json"] = .text(#"{"status_code": \#(code), "body": "code \#(code)"}"#)
        }
        let tree = try TemporaryTree(exchanges: exchanges)
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        for code in codes {
            let response = try await server.client.get("/s\(code)")
            #expect(response.statusCode == code)
            #expect(response.text == "code \(code)", "status \(code)")
        }
    }

    @Test("headers are sent; an array of values repeats the header (Set-Cookie)")
    func headers() async throws {
        let tree = try TemporaryTree(exchanges: [
            "login/POST/configuration.json": """
            {"status_code": 200, "headers": {
              "X-Request-Id": "abc-123",
              "Cache-Control": "no-store",
              "Set-Cookie": ["session=s1; Path=/; HttpOnly", "theme=dark", "lang=fr"]
            }, "body": "ok"}
            """
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.send("POST", "/login")
        #expect(response.statusCode == 200)
        #expect(response.header("x-request-id") == "abc-123")
        #expect(response.headers(named: "X-Request-Id").count == 1)
        #expect(response.header("Cache-Control") == "no-store")
        #expect(response.headers(named: "Set-Cookie") == ["session=s1; Path=/; HttpOnly", "theme=dark", "lang=fr"])
    }

    @Test("a 5 MiB binary response_file is sent byte for byte")
    func largeBinaryFile() async throws {
        let bytes = TestBytes.pseudoRandom(count: 5 * 1024 * 1024 + 17)
        let tree = try TemporaryTree(exchanges: [
            "archive/GET/configuration.json": #"{"response_file": "data/archive.bin"}"#,
            "archive/GET/data/archive.bin": .bytes(bytes),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        var client = server.client
        client.timeout = 10
        let response = try await client.get("/archive")
        #expect(response.statusCode == 200)
        #expect(response.contentLength == bytes.count)
        #expect(response.body.count == bytes.count)
        #expect(response.body == bytes, "the body differs from the file")
        #expect(response.header("Content-Type") == "application/octet-stream")
        // Twice, to be sure the file is not consumed by the first answer.
        let again = try await client.get("/archive")
        #expect(again.body == bytes)
    }

    @Test("a PNG file is sent byte for byte as image/png")
    func pngFile() async throws {
        let tree = try TemporaryTree(exchanges: [
            "logo/GET/configuration.json": #"{"response_file": "logo.png"}"#,
            "logo/GET/logo.png": .bytes(TestBytes.pngLike),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.get("/logo")
        #expect(response.statusCode == 200)
        #expect(response.header("Content-Type") == "image/png")
        #expect(response.contentLength == TestBytes.pngLike.count)
        #expect(response.body == TestBytes.pngLike)
    }

    @Test(
        "Content-Type follows the file extension",
        arguments: [
            ("data.json", "application/json"),
            ("notes.txt", "text/plain; charset=utf-8"),
            ("page.html", "text/html; charset=utf-8"),
            ("photo.jpg", "image/jpeg"),
            ("doc.pdf", "application/pdf"),
            ("bundle.zip", "application/zip"),
            ("thing.unknownext", "application/octet-stream"),
            ("noextension", "application/octet-stream"),
        ]
    )
    func contentTypeByExtension(file: String, type: String) async throws {
        let tree = try TemporaryTree(exchanges: [
            "f/GET/configuration.json": .text(#"{"response_file": "\#(file)"}"#),
            "f/GET/\(file)": .text("content of \(file)"),
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.get("/f")
        #expect(response.headers(named: "Content-Type") == [type], "\(file)")
        #expect(response.text == "content of \(file)")
    }

    @Test("a headers entry overrides the derived Content-Type, whatever the case of its name")
    func contentTypeOverride() async throws {
        let tree = try TemporaryTree(exchanges: [
            "file/GET/configuration.json":
                #"{"response_file": "x.json", "headers": {"content-type": "application/vnd.api+json"}}"#,
            "file/GET/x.json": #"{"x": 1}"#,
            "inline/GET/configuration.json": #"{"body": {"a": 1}, "headers": {"CONTENT-TYPE": "text/csv"}}"#,
            "text/GET/configuration.json": #"{"body": "<p>hi</p>", "headers": {"Content-Type": "text/html"}}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let file = try await server.client.get("/file")
        #expect(file.headers(named: "Content-Type") == ["application/vnd.api+json"])
        #expect(file.text == #"{"x": 1}"#)
        let inline = try await server.client.get("/inline")
        #expect(inline.headers(named: "Content-Type") == ["text/csv"])
        let text = try await server.client.get("/text")
        #expect(text.headers(named: "Content-Type") == ["text/html"])
        #expect(text.text == "<p>hi</p>")
    }

    @Test("an inline string is sent as is, as text/plain; charset=utf-8")
    func inlineString() async throws {
        let message = "héllo ☕ \"quoted\"\nsecond line"
        let tree = try TemporaryTree(exchanges: [
            "s/GET/configuration.json": #"{"body": "héllo ☕ \"quoted\"\nsecond line"}"#
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.get("/s")
        #expect(response.headers(named: "Content-Type") == ["text/plain; charset=utf-8"])
        #expect(response.body == Array(message.utf8))
        #expect(response.contentLength == message.utf8.count)
    }

    @Test("any other inline JSON value is sent as compact JSON, as application/json")
    func inlineJSON() async throws {
        let tree = try TemporaryTree(exchanges: [
            "object/GET/configuration.json": "{\"body\": {  \"a\" : [ 1 ,  2 ] }}",
            "nested/GET/configuration.json": """
            {"body": {
                "user": {"id": 7, "name": "Ada Lovelace", "tags": ["x", "y"]},
                "ok": true,
                "none": null,
                "ratio": 0.5
            }}
            """,
            "array/GET/configuration.json": #"{"body": [1, "two", {"three": 3}]}"#,
            "number/GET/configuration.json": #"{"body": 42}"#,
            "bool/GET/configuration.json": #"{"body": true}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }

        let object = try await server.client.get("/object")
        #expect(object.text == #"{"a":[1,2]}"#)
        #expect(object.headers(named: "Content-Type") == ["application/json"])

        let nested = try await server.client.get("/nested")
        #expect(nested.headers(named: "Content-Type") == ["application/json"])
        #expect(!nested.text.contains("\n"))
        #expect(
            !nested.text.replacingOccurrences(of: "Ada Lovelace", with: "").contains(" "), "not compact: \(nested.text)"
        )
        let value = try #require(try nested.json() as? [String: Any])
        #expect((value["user"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
        #expect((value["user"] as? [String: Any])?["tags"] as? [String] == ["x", "y"])
        #expect(value["ok"] as? Bool == true)
        #expect(value["none"] is NSNull)
        #expect(value["ratio"] as? Double == 0.5)

        let array = try await server.client.get("/array")
        #expect(array.text == #"[1,"two",{"three":3}]"#)
        #expect(array.headers(named: "Content-Type") == ["application/json"])
        let number = try await server.client.get("/number")
        #expect(number.text == "42")
        #expect(number.headers(named: "Content-Type") == ["application/json"])
        let bool = try await server.client.get("/bool")
        #expect(bool.text == "true")
    }

    @Test("no body: no Content-Type, an empty body")
    func noBody() async throws {
        let tree = try TemporaryTree(exchanges: [
            "created/POST/configuration.json": #"{"status_code": 201, "headers": {"Location": "/things/1"}}"#
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.send("POST", "/created")
        #expect(response.statusCode == 201)
        #expect(response.header("Location") == "/things/1")
        #expect(response.header("Content-Type") == nil)
        #expect(response.body.isEmpty)
        #expect(response.contentLength == nil || response.contentLength == 0)
    }

    @Test(
        "no configuration.json: 200 with an empty body",
        arguments: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
    func absentConfiguration(method: String) async throws {
        let tree = try TemporaryTree(exchanges: ["thing/\(method)/": .folder])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.send(method, "/thing")
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
        #expect(response.header("Content-Type") == nil)
    }

    @Test("204 and 304 with a body configured send no body", arguments: [204, 304])
    func noBodyStatuses(code: Int) async throws {
        let tree = try TemporaryTree(exchanges: [
            "inline/GET/configuration.json": .text(#"{"status_code": \#(code), "body": "must not be sent"}"#),
            "file/GET/configuration.json": .text(#"{"status_code": \#(code), "response_file": "x.json"}"#),
            "file/GET/x.json": #"{"must": "not be sent"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        for path in ["/inline", "/file"] {
            let response = try await server.client.get(path)
            #expect(response.statusCode == code)
            #expect(response.body.isEmpty, "\(code) \(path) sent: \(response.text)")
            #expect(!response.text.contains("must"))
        }
    }
}

extension ResponseTests {
    /// Resident memory of a process in KiB, from /proc.
    static func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        return line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    @Test("a 512 MiB response file is streamed, not loaded into memory")
    func largeFileStreamed() async throws {
        let size = 512 * 1024 * 1024
        let tree = try TemporaryTree(exchanges: [
            "huge/GET/configuration.json": #"{"response_file": "huge.bin"}"#,
            "huge/GET/huge.bin": .bytes([0x42]),
        ])
        defer { tree.remove() }
        // A sparse file: no disk space, no time to write.
        let file = tree.url.appendingPathComponent("network-exchanges/huge/GET/huge.bin").path
        try #require(truncate(file, off_t(size)) == 0)
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let head = try await server.client.head("/huge")
        #expect(head.contentLength == size)
        #expect(head.body.isEmpty)

        let before = try #require(Self.residentKiB(server.pid))
        let client = server.client
        let pid = server.pid
        // Read the first 8 MiB of the answer, look at the server's memory while it is sending, hang up.
        let (received, during) = try await BlockingCall.run {
            let connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
            defer { connection.close() }
            try connection.write(client.requestBytes("GET", "/huge"))
            let received = try connection.readAtLeast(8 * 1024 * 1024)
            return (received, Self.residentKiB(pid))
        }
        #expect(received.count >= 8 * 1024 * 1024)
        #expect(received.starts(with: Array("HTTP/1.1 200".utf8)))
        let grown = (during ?? 0) - before
        #expect(grown < 128 * 1024, "the server grew by \(grown) KiB while sending a 512 MiB file")
        #expect(try await server.client.head("/huge").statusCode == 200)
    }
}
