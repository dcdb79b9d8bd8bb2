import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// Request bodies are consumed as they arrive and dropped; only the journal's first 64 KiB are kept.
    @Suite("request bodies")
    struct UploadTests {
        static let size = 512 * 1024 * 1024
        static let chunkSize = 1024 * 1024

        /// One MiB of printable ASCII (so that the journal's UTF-8 text is byte for byte what was sent),
        /// sent over and over: the upload is generated as it goes, never held whole.
        static let chunk: [UInt8] = {
            var generator = SeededGenerator(seed: 512)
            return (0..<chunkSize).map { _ in UInt8.random(in: 0x21...0x7E, using: &generator) }
        }()

        @Test(
            "a 512 MiB upload is answered 200, the server grows by less than 64 MiB, and the journal keeps 64 KiB of it and the full size"
        )
        func hugeUpload() async throws {
            let tree = try TemporaryTree(
                exchanges: ["upload/POST/configuration.json": #"{"body": "received"}"#],
                configuration: #"{"watch": false}"#
            )
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let (pid, client) = (server.pid, server.client)
            let before = try #require(ProcessStatus.residentKiB(pid))

            let (raw, peak) = try await BlockingCall.run {
                let connection = try HTTPConnection(host: client.host, port: client.port, timeout: 30)
                defer { connection.close() }
                try connection.write(
                    Array(
                        "POST /upload HTTP/1.1\r\nHost: \(client.authority)\r\nContent-Type: application/octet-stream\r\nContent-Length: \(Self.size)\r\nConnection: close\r\n\r\n"
                            .utf8))
                var peak = before
                for index in 0..<(Self.size / Self.chunkSize) {
                    try connection.write(Self.chunk)
                    if index % 16 == 0, let resident = ProcessStatus.residentKiB(pid) { peak = max(peak, resident) }
                }
                return (try connection.readToEnd(), peak)
            }
            let response = try HTTPResponse(raw: raw)
            #expect(response.statusCode == 200)
            #expect(response.text == "received")
            let grown = max(peak, ProcessStatus.residentKiB(pid) ?? 0) - before
            #expect(grown < 64 * 1024, "the server grew by \(grown) KiB while taking a 512 MiB upload")

            let journal = try #require(try await client.get("/__espressomartini/requests").json() as? [[String: Any]])
            let entry = try #require(journal.last { $0["path"] as? String == "/upload" })
            #expect(entry["body_size"] as? Int == Self.size)
            let body = try #require(entry["body"] as? String)
            #expect(body.utf8.count == 65536)
            #expect(
                Array(body.utf8) == Array(Self.chunk.prefix(65536)),
                "the journal's 64 KiB are not the start of the upload")
            #expect(try await client.get("/__espressomartini/health").statusCode == 200)
            #expect(server.stop().exitCode == 0)
        }
    }
}
