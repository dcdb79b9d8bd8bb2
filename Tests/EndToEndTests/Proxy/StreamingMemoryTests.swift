import Foundation
import Glibc
import Testing

/// Bodies stream through a proxy in bounded memory: a 512 MiB answer passes to the client and into the
/// recorded tree, and a 512 MiB request body to the target, while the server's resident memory grows by
/// less than 64 MiB.
@Suite("Proxy: bounded memory", .serialized)
struct StreamingMemoryTests {
    static let size = 512 * 1024 * 1024
    static let limitKiB = 64 * 1024

    @Test("a 512 MiB answer is forwarded and recorded with the server growing by less than 64 MiB")
    func largeAnswerRecorded() async throws {
        let upstream = try await Upstream()
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url)
        #expect(try await recorder.client.get("/json").statusCode == 200)  // warmed up: libcurl loaded, a transfer made
        let before = try #require(ProcessStatus.residentKiB(recorder.pid))
        let download = try await ExternalTool.run(
            "curl",
            [
                "-sS", "--max-time", "120", "-o", "/dev/null", "-w", "%{http_code} %{size_download}",
                "http://127.0.0.1:\(recorder.port)/big?size=\(Self.size)",
            ], timeout: 150)
        #expect(download.standardOutput == "200 \(Self.size)", "\(download)")
        #expect(await RecordingTests.waitForRecordings(recorder, count: 2))
        try Self.expectBounded(recorder.pid, from: before)
        recorder.stop(signal: SIGINT)
        let body = folder.url.appendingPathComponent("recorded/big/GET/response-1.bin")
        let attributes = try FileManager.default.attributesOfItem(atPath: body.path)
        #expect((attributes[.size] as? Int) == Self.size)
        // The pattern the upstream sends, checked at both ends.
        let handle = try FileHandle(forReadingFrom: body)
        defer { try? handle.close() }
        #expect(try handle.read(upToCount: 4) == Data([0, 1, 2, 3]))
        try handle.seek(toOffset: UInt64(Self.size - 2))
        #expect(try handle.read(upToCount: 2) == Data([254, 255]))
    }

    @Test("a 512 MiB request body streams to the target with the server growing by less than 64 MiB")
    func largeRequestBody() async throws {
        let upstream = try await Upstream()
        let tree = try TemporaryTree()
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree, ["--proxy", upstream.url])
        defer { server.stop() }
        #expect(try await server.client.get("/json").statusCode == 200)
        // A sparse file: 512 MiB of zeros that take no room on the disk.
        let file = tree.url.appendingPathComponent("zeros.bin")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Self.size))
        try handle.close()
        let before = try #require(ProcessStatus.residentKiB(server.pid))
        let upload = try await ExternalTool.run(
            "curl",
            [
                "-sS", "--max-time", "120", "-X", "POST", "-T", file.path, "http://127.0.0.1:\(server.port)/upload",
            ], timeout: 150)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(upload.standardOutput.utf8)) as? [String: Int], "\(upload)")
        #expect(object["size"] == Self.size)
        try Self.expectBounded(server.pid, from: before)
    }

    /// The server's peak resident memory grew by less than `limitKiB` since `before`; on plain builds only, as a
    /// sanitizer keeps freed memory in quarantine (its leak checker covers the instrumented ones at the stop).
    static func expectBounded(_ pid: Int32, from before: Int) throws {
        guard !Sanitizer.isActive else { return }
        let peak = try #require(ProcessStatus.peakResidentKiB(pid))
        #expect(peak - before < limitKiB, "resident memory went from \(before) KiB to a peak of \(peak) KiB")
    }
}
