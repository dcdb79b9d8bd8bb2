@testable import EspressoMartiniServer
import EspressoMartini
import EspressoMartiniJansson
import Foundation
import Logging
import Testing

/// `RecordingWriter`'s backlog: it says it is behind while `backlogLimit` exchanges wait to be written, and
/// no longer once they are written (the forwarded answers recorded meanwhile are then held back).
@Suite struct RecordingWriterTests {
    static func exchange(_ number: Int) -> RecordedExchange {
        RecordedExchange(
            method: .get, path: "/backlog/\(number)", rawQuery: "", requestHeaders: [], requestBody: nil,
            requestBodySize: 0, statusCode: 200,
            responseHeaders: [HTTPHeader(name: "Content-Type", value: "application/json")], responseBodyFile: nil,
            responseBodyBytes: Array(#"{"n": \#(number)}"#.utf8), contentDecoded: false
        )
    }

    @Test("behind while backlogLimit exchanges wait, caught up once they are written; each is written")
    func backlog() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-writer-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let recorder = ExchangeRecorder(requestsFolder: root, options: RecordingOptions(), parser: JanssonParser())
        let writer = try RecordingWriter(recorder: recorder, reloading: nil, logger: Logger(label: "test"))
        // The first job's `then` holds the writing thread (once that job is written) until the backlog is looked at.
        let holding = Locked(false)
        let gate = Monitor(false)
        writer.submit(
            RecordingWriter.Job(exchange: Self.exchange(0), encoding: nil) {
                holding.withLock { $0 = true }
                gate.wait { $0 }
            })
        let holdDeadline = ContinuousClock.now + .seconds(30)
        while !holding.withLock({ $0 }), ContinuousClock.now < holdDeadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(holding.withLock { $0 })
        for number in 1...RecordingWriter.backlogLimit {
            #expect(!writer.isBehind, "behind with \(number - 1) waiting")
            writer.submit(RecordingWriter.Job(exchange: Self.exchange(number), encoding: nil) {})
        }
        #expect(writer.isBehind)
        gate.withLock { $0 = true }
        gate.signal()
        let deadline = ContinuousClock.now + .seconds(30)
        while writer.isBehind, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!writer.isBehind)
        let summary = writer.finish()
        #expect(summary.responses == RecordingWriter.backlogLimit + 1)
    }
}
