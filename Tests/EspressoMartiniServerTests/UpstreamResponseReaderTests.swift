import EspressoMartini
@testable import EspressoMartiniServer
import Testing

@Suite("The plain-HTTP client's answer reader")
struct UpstreamResponseReaderTests {
    /// What a reader made of some bytes: the heads it handed over, its body, the last progress.
    struct Outcome {
        var heads: [UpstreamHead] = []
        var body: [UInt8] = []
        var progress = UpstreamResponseReader.Progress.needsMore
        var consumed = 0
    }

    /// Feeds `text` to `reader` in pieces of `pieceSize` bytes (all at once by default), stopping at the
    /// first progress other than `needsMore`.
    static func read(_ text: String, into reader: inout UpstreamResponseReader, pieceSize: Int = .max) -> Outcome {
        var outcome = Outcome()
        let bytes = Array(text.utf8)
        var start = 0
        repeat {
            let end = min(bytes.count, start + min(pieceSize, bytes.count))
            outcome.progress = bytes[start..<end].withUnsafeBytes { piece in
                reader.read(
                    piece, head: { outcome.heads.append($0) },
                    body: {
                        outcome.body.append(contentsOf: $0)
                        return true
                    })
            }
            outcome.consumed = start + reader.consumed
            start = end
        } while start < bytes.count && outcome.progress == .needsMore
        return outcome
    }

    @Test(
        "an answer with Content-Length: its head once, its headers as they came, its body, complete, the connection kept"
    )
    func contentLength() {
        var reader = UpstreamResponseReader(answersHead: false)
        let outcome = Self.read(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Empty:\r\nContent-Length:  7 \r\n\r\n{\"a\":1}",
            into: &reader)
        #expect(outcome.heads.count == 1)
        #expect(outcome.heads.first?.statusCode == 200)
        #expect(outcome.heads.first?.contentLength == 7)
        #expect(
            outcome.heads.first?.headers == [
                HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "X-Empty", value: ""),
                HTTPHeader(name: "Content-Length", value: "7"),
            ])
        #expect(String(decoding: outcome.body, as: UTF8.self) == "{\"a\":1}")
        #expect(outcome.progress == .complete)
        #expect(reader.keepsAlive)
    }

    @Test(
        "a chunked answer read a byte at a time: extensions and trailers skipped, the body whole",
        arguments: [1, 3, 1000])
    func chunked(pieceSize: Int) {
        var reader = UpstreamResponseReader(answersHead: false)
        let text =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n5;name=value\r\nhello\r\nB\r\n, espresso!\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let outcome = Self.read(text, into: &reader, pieceSize: pieceSize)
        #expect(String(decoding: outcome.body, as: UTF8.self) == "hello, espresso!")
        #expect(outcome.progress == .complete)
        #expect(outcome.consumed == text.utf8.count)
        #expect(outcome.heads.count == 1)
        #expect(outcome.heads.first?.contentLength == nil)
        #expect(outcome.heads.first?.headers == [HTTPHeader(name: "Transfer-Encoding", value: "gzip, Chunked")])
        #expect(reader.keepsAlive)
    }

    @Test("interim answers before the final head are skipped; its body follows")
    func interim() {
        var reader = UpstreamResponseReader(answersHead: false)
        let outcome = Self.read(
            "HTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
            into: &reader)
        #expect(outcome.heads.map(\.statusCode) == [200])
        #expect(outcome.heads.first?.headers == [HTTPHeader(name: "Content-Length", value: "2")])
        #expect(outcome.body == Array("ok".utf8))
        #expect(outcome.progress == .complete)
    }

    @Test("a folded header line continues the header before it")
    func folded() {
        var reader = UpstreamResponseReader(answersHead: false)
        let outcome = Self.read(
            "HTTP/1.1 200 OK\r\nX-Long: first\r\n  second\r\nContent-Length: 0\r\n\r\n", into: &reader)
        #expect(
            outcome.heads.first?.headers == [
                HTTPHeader(name: "X-Long", value: "first second"), HTTPHeader(name: "Content-Length", value: "0"),
            ])
        #expect(outcome.progress == .complete)
    }

    @Test("no body after HEAD, 204 or 304, whatever the headers say")
    func bodiless() {
        var head = UpstreamResponseReader(answersHead: true)
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", into: &head).progress == .complete)
        for status in ["204 No Content", "304 Not Modified"] {
            var reader = UpstreamResponseReader(answersHead: false)
            let outcome = Self.read("HTTP/1.1 \(status)\r\nContent-Length: 5\r\n\r\n", into: &reader)
            #expect(outcome.progress == .complete)
            #expect(outcome.body.isEmpty)
        }
    }

    @Test("without a length the body runs to the connection's end, which is then closed")
    func untilClose() {
        var reader = UpstreamResponseReader(answersHead: false)
        let outcome = Self.read("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of it", into: &reader)
        #expect(outcome.progress == .needsMore)
        #expect(outcome.body == Array("all of it".utf8))
        #expect(reader.finish() == nil)
        #expect(reader.isComplete)
        #expect(!reader.keepsAlive)
    }

    @Test("Connection: close and HTTP/1.0 end the connection after the answer")
    func closing() {
        for text in [
            "HTTP/1.1 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n",
        ] {
            var reader = UpstreamResponseReader(answersHead: false)
            #expect(Self.read(text, into: &reader).progress == .complete)
            #expect(!reader.keepsAlive, "\(text)")
        }
    }

    @Test("a body piece refused pauses the reader where it stopped; the rest read later completes it")
    func paused() {
        var reader = UpstreamResponseReader(answersHead: false)
        let text = Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody".utf8)
        let first = text.withUnsafeBytes { reader.read($0, head: { _ in }, body: { _ in false }) }
        #expect(first == .paused)
        #expect(reader.consumed == text.count - 4)
        var body: [UInt8] = []
        let rest = text[(text.count - 4)...].withUnsafeBytes {
            reader.read(
                $0, head: { _ in },
                body: {
                    body.append(contentsOf: $0); return true
                })
        }
        #expect(rest == .complete)
        #expect(body == Array("body".utf8))
    }

    @Test("the bytes after a complete answer are not taken")
    func bytesPastTheEnd() {
        var reader = UpstreamResponseReader(answersHead: false)
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
        let outcome = Self.read(answer + "HTTP/1.1 200 OK\r\n", into: &reader)
        #expect(outcome.progress == .complete)
        #expect(outcome.consumed == answer.utf8.count)
    }

    @Test(
        "what is no HTTP/1.1 answer is malformed",
        arguments: [
            "SSH-2.0-OpenSSH\r\n", "HTTP/1.1 2xx OK\r\n\r\n",
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
        ])
    func malformed(text: String) {
        var reader = UpstreamResponseReader(answersHead: false)
        guard case .malformed(let problem) = Self.read(text, into: &reader).progress else {
            Issue.record("\(text.debugDescription) was read as an answer")
            return
        }
        #expect(!problem.isEmpty)
    }

    @Test("a head longer than 64 KiB is malformed")
    func headTooLong() {
        var reader = UpstreamResponseReader(answersHead: false)
        let text =
            "HTTP/1.1 200 OK\r\n"
            + String(repeating: "X-Long: " + String(repeating: "a", count: 1000) + "\r\n", count: 70)
        guard case .malformed = Self.read(text, into: &reader, pieceSize: 4096).progress else {
            Issue.record("a 70 KB head was taken")
            return
        }
    }

    @Test("the connection's end before the answer is complete says so; before any byte too")
    func endedEarly() {
        var reader = UpstreamResponseReader(answersHead: false)
        _ = Self.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", into: &reader)
        #expect(reader.finish() == "the target closed the connection before its answer was complete")
        var nothing = UpstreamResponseReader(answersHead: false)
        #expect(!nothing.hasStarted)
        #expect(nothing.finish() == "the target closed the connection without an answer")
    }
}
