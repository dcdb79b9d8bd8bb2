import Foundation
import Glibc
import Testing

/// `espressomartini record` with request bodies that are no text (written as `body_base64`) and
/// `multipart/form-data` uploads (written part by part): the recorded tree loads after each exchange and
/// answers the same requests again, even from a client that picks another multipart boundary.
@Suite("Proxy: record binary and multipart bodies")
struct RecordingBodyTests {
    typealias Step = RecordingTests.Step

    /// A NUL, bytes that are not UTF-8 (`FF FE`, a lone continuation byte), a line break and text.
    static let binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0x00, 0xFF, 0xFE, 0x80, 0x0D, 0x0A, 0x41]

    /// A form with the text field `note` and the file `photo` (`a.png`, `image/png`, `file`), its parts
    /// delimited by `boundary`, as a browser or curl sends it.
    static func multipart(boundary: String, note: String = "a cup of espresso", file: [UInt8] = binary) -> Step {
        var body = Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n\(note)\r\n"
                + "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n"
                + "Content-Type: image/png\r\n\r\n").utf8)
        body += file + Array("\r\n--\(boundary)--\r\n".utf8)
        return Step(
            method: "POST", target: "/echo/upload",
            headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
    }

    /// Records `steps` (checking that the tree loads cleanly after each), stops the recorder, and serves what
    /// it wrote; hands back the target's answers and the server. The caller stops the server.
    static func recordThenServe(
        _ steps: [Step], in folder: TemporaryTree
    ) async throws -> (answers: [HTTPResponse], replay: ServerProcess) {
        let upstream = try await Upstream()
        let recorder = try await RecordingTests.recorder(upstream, in: folder.url)
        var answers: [HTTPResponse] = []
        for (index, step) in steps.enumerated() {
            answers.append(
                try await recorder.client.send(step.method, step.target, headers: step.headers, body: step.body))
            #expect(
                await RecordingTests.waitForRecordings(recorder, count: index + 1),
                "step \(index + 1) was not written:\n\(recorder.standardError)")
            let check = try await ServerProcess.runToCompletion(
                ["endpoints", "--requests-folder", "recorded"], in: folder.url)
            #expect(check.exitCode == 0 && check.standardError.isEmpty, "after step \(index + 1): \(check)")
        }
        #expect(recorder.stop(signal: SIGINT).exitCode == 0)
        let replay = try await ServerProcess.start(
            ["run", "--port", "0", "--requests-folder", "recorded"], in: folder.url)
        return (answers, replay)
    }

    static func configuration(in folder: TemporaryTree) -> String {
        let file = folder.url.appendingPathComponent("recorded/echo/upload/POST/configuration.json")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    @Test("a binary upload with NUL and non-UTF-8 bytes is written as body_base64 and replays; other bytes miss")
    func binaryUpload() async throws {
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let steps = [
            Step(
                method: "POST", target: "/echo/upload", headers: [("Content-Type", "application/octet-stream")],
                body: Self.binary),
            Step(method: "PUT", target: "/echo/upload", body: [0x00]),
        ]
        let (answers, replay) = try await Self.recordThenServe(steps, in: folder)
        defer { replay.stop() }
        #expect(answers.allSatisfy { $0.statusCode == 200 })
        #expect(Self.configuration(in: folder).contains(#""body_base64": "iVBORwAA//6ADQpB""#))
        for (step, original) in zip(steps, answers) {
            let again = try await replay.client.send(step.method, step.target, headers: step.headers, body: step.body)
            #expect(again.statusCode == original.statusCode, "\(step.method): \(again.text)")
            #expect(again.body == original.body, "\(step.method): \(again.text)")
        }
        var other = Self.binary
        other[7] = 0xFD  // U+FFFD read as text either way: only the bytes tell them apart
        let miss = try await replay.client.send(
            "POST", "/echo/upload", headers: [("Content-Type", "application/octet-stream")], body: other)
        #expect(miss.statusCode == 404 && miss.text.contains("body_base64"), "\(miss.text)")
        let empty = try await replay.client.send("PUT", "/echo/upload", body: [0x00, 0x00])
        #expect(empty.statusCode == 404, "\(empty.text)")
    }

    @Test(
        "a multipart upload is written part by part: it replays from a client with another boundary, and another file misses"
    )
    func multipartUpload() async throws {
        let folder = try RecordingTests.freshFolder()
        defer { folder.remove() }
        let recorded = Self.multipart(boundary: "------------------------d74496d66958873e")
        let (answers, replay) = try await Self.recordThenServe([recorded], in: folder)
        defer { replay.stop() }
        #expect(answers[0].statusCode == 200)
        let configuration = Self.configuration(in: folder)
        #expect(
            configuration.contains(#""multipart": {"#) && configuration.contains(#""filename": "a.png""#)
                && !configuration.contains("d74496d66958873e"),
            "\(configuration)")
        // The same form, as another client (another boundary) sends it.
        let other = Self.multipart(boundary: "----WebKitFormBoundary7MA4YWxkTrZu0gW")
        let again = try await replay.client.send(other.method, other.target, headers: other.headers, body: other.body)
        #expect(again.statusCode == answers[0].statusCode, "\(again.text)")
        #expect(again.body == answers[0].body, "\(again.text)")
        // Another file's bytes, or another note, is another request.
        for changed in [
            Self.multipart(boundary: "xyz", file: Array(Self.binary.dropLast())),
            Self.multipart(boundary: "xyz", note: "a cup of tea"),
        ] {
            let miss = try await replay.client.send(
                changed.method, changed.target, headers: changed.headers, body: changed.body)
            #expect(miss.statusCode == 404 && miss.text.contains("multipart"), "\(miss.text)")
        }
    }
}
