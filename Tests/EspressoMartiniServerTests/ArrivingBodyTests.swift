@testable import EspressoMartiniServer
import EspressoMartini
import Foundation
import Testing

/// `ArrivingBody`, the callback body whose bytes arrive over time, driven as libmicrohttpd drives it:
/// reads on one thread, a suspension when nothing is ready, and reads again once the connection is
/// resumed. Its bodies (`StreamBody`, `PacedBody`) and the loop's hang-up watches too.
@Suite struct ArrivingBodyTests {
    /// Bytes a producer hands over from another thread.
    final class HandedBody: ArrivingBody, @unchecked Sendable {
        private let handed = Locked((bytes: [UInt8](), finished: false))

        func hand(_ bytes: [UInt8]) {
            handed.withLock { $0.bytes += bytes }
            wake()
        }

        func finish() {
            handed.withLock { $0.finished = true }
            wake()
        }

        override func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
            handed.withLock { handed in
                guard !handed.bytes.isEmpty else { return handed.finished ? .endOfBody : nil }
                let count = min(buffer.count, handed.bytes.count)
                buffer.copyBytes(from: handed.bytes[..<count])
                handed.bytes.removeFirst(count)
                return .bytes(count)
            }
        }
    }

    /// What libmicrohttpd does with a callback body: reads until the end; after `.suspended`, waits until
    /// the connection is resumed (at most `timeout` seconds each time), then reads again. The bytes, how
    /// the body ended, and the times each read gave bytes.
    static func drain(
        _ body: ArrivingBody, on connection: FakeConnection, block: Int = 7, timeout: Double = 10
    ) -> (bytes: [UInt8], end: BodyRead, times: [Double], waited: [Bool]) {
        var bytes: [UInt8] = []
        var times: [Double] = []
        var waited: [Bool] = []
        var waiting = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: block, alignment: 1)
        defer { buffer.deallocate() }
        let start = Date()
        while true {
            let read = body.read(at: UInt64(bytes.count), into: buffer)
            switch read {
            case .bytes(let count):
                bytes += buffer[..<count]
                times.append(Date().timeIntervalSince(start))
                waited.append(waiting)
                waiting = false
            case .suspended:
                waiting = true
                let parked = connection.suspensions
                guard connection.wait(timeout: timeout, until: { connection.resumptions >= parked }) else {
                    return (bytes, .suspended, times, waited)
                }
            case .endOfBody, .broken:
                return (bytes, read, times, waited)
            }
        }
    }

    /// A producer on another thread hands bytes over in small pieces while the reader drains them: every
    /// byte arrives once, in order, and each suspension is matched by exactly one resumption (no wake is
    /// lost, none resumes a connection that is not suspended).
    @Test func noWakeIsLostAgainstTheSuspension() {
        let connection = FakeConnection()
        let body = HandedBody(connection: connection, watchesHangUps: false)
        let expected = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let producer = Thread {
            var index = 0
            while index < expected.count {
                let count = min(1 + index % 13, expected.count - index)
                body.hand(Array(expected[index..<index + count]))
                index += count
                if index % 7 == 0 { usleep(10) }
            }
            body.finish()
        }
        producer.start()
        let (bytes, end, _, _) = Self.drain(body, on: connection)
        #expect(end == .endOfBody)
        #expect(bytes == expected)
        #expect(connection.suspensions == connection.resumptions)
        #expect(connection.suspensions > 0, "the reader did wait for the producer")
    }

    /// `end` from another thread stops a body that waits: it is resumed and reads the end.
    @Test func endingResumesAWaitingBody() {
        let connection = FakeConnection()
        let body = HandedBody(connection: connection, watchesHangUps: false)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        defer { buffer.deallocate() }
        #expect(body.read(at: 0, into: buffer) == .suspended)
        #expect(connection.suspensions == 1 && connection.resumptions == 0)
        body.end(.endOfBody)
        body.end(.broken)
        #expect(connection.resumptions == 1)
        #expect(body.read(at: 0, into: buffer) == .endOfBody, "the first end stands")
        body.wake()
        #expect(connection.resumptions == 1, "a wake with the connection running resumes nothing")
    }

    /// A stream's chunks go out at their due times, each as one write; the bytes of a long chunk go in
    /// several reads without waiting; a pause sends nothing.
    @Test func aStreamSendsEachChunkWhenItIsDue() throws {
        let stream = ResponseStream(
            framing: .raw,
            chunks: [
                StreamChunk(delay: 0, content: .literal(Array("first\n".utf8))),
                StreamChunk(delay: 0.15, content: .literal(Array("second chunk, longer than a read\n".utf8))),
                StreamChunk(delay: 0.1, content: .literal([])),
                StreamChunk(delay: 0.1, content: .literal(Array("last\n".utf8))),
            ], repeats: false, derivedContentType: "text/plain", configured: .null)
        let answer = try Self.streamAnswer(stream)
        let connection = FakeConnection()
        let body = StreamBody(
            answer, start: MonotonicClock.now(), connection: connection, watchesHangUps: false, onClose: nil)
        let (bytes, end, times, waited) = Self.drain(body, on: connection, block: 8)
        #expect(end == .endOfBody)
        #expect(String(decoding: bytes, as: UTF8.self) == "first\nsecond chunk, longer than a read\nlast\n")
        #expect(times.count == 1 + 5 + 1)
        #expect(waited == [false, true, false, false, false, false, true], "one chunk's reads do not wait")
        #expect(times[1] >= 0.15 && times[1] < 1.5, "after its delay, with room for a busy machine")
        #expect(times[6] >= 0.35, "the pause counts: 0.15 + 0.1 + 0.1")
        #expect(connection.suspensions == connection.resumptions && connection.suspensions >= 2)
    }

    /// A repeated stream starts over after its last chunk until it is ended.
    @Test func aRepeatedStreamStartsOverUntilEnded() throws {
        let stream = ResponseStream(
            framing: .raw, chunks: [StreamChunk(delay: 0.01, content: .literal(Array("tick\n".utf8)))],
            repeats: true, derivedContentType: "text/plain", configured: .null)
        let connection = FakeConnection()
        let body = StreamBody(
            try Self.streamAnswer(stream), start: MonotonicClock.now(), connection: connection, watchesHangUps: false,
            onClose: nil)
        #expect(body.isEndless)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { body.end(.endOfBody) }
        let (bytes, end, _, _) = Self.drain(body, on: connection, block: 64)
        #expect(end == .endOfBody)
        let ticks = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(ticks.count >= 3 && ticks.allSatisfy { $0 == "tick" })
    }

    /// A paced body goes no faster than its bandwidth, in steps of a twentieth of a second's bytes.
    @Test func aThrottledBodyKeepsItsRate() {
        let bytes = (0..<6000).map { UInt8(truncatingIfNeeded: $0) }
        let owner = HeapBytes(copying: bytes)
        let connection = FakeConnection()
        let body = PacedBody(
            KnownBody(.memory(owner.bytes, owner: owner), count: bytes.count), size: UInt64(bytes.count),
            bytesPerSecond: 20_000,
            connection: connection, onClose: nil)
        #expect(body.blockSize == 1000)
        let start = Date()
        let (sent, end, _, _) = Self.drain(body, on: connection, block: 4096)
        let elapsed = Date().timeIntervalSince(start)
        #expect(sent == bytes)
        #expect(end == .endOfBody)
        #expect(elapsed >= 0.24, "6000 bytes at 20 000 B/s, the first 1000 at once: 0.25 s")
        #expect(elapsed < 3, "with room for a busy machine")
    }

    /// A stream on a slow link: each chunk at its time, its bytes no faster than the bandwidth (the pacing
    /// is the one decorator any body gets, here around the stream).
    @Test func aPacedStreamKeepsItsScheduleAndItsRate() throws {
        let stream = ResponseStream(
            framing: .raw,
            chunks: [
                StreamChunk(delay: 0, content: .literal(Array(repeating: UInt8(ascii: "a"), count: 3000))),
                StreamChunk(delay: 0.3, content: .literal(Array("end".utf8))),
            ], repeats: false, derivedContentType: "text/plain", configured: .null)
        let connection = FakeConnection()
        let inner = StreamBody(
            try Self.streamAnswer(stream), start: MonotonicClock.now(), connection: connection, onClose: nil)
        let body = PacedBody(inner, size: nil, bytesPerSecond: 20_000, connection: connection, onClose: nil)
        #expect(body.blockSize == 1000)
        let (bytes, end, times, _) = Self.drain(body, on: connection, block: 4096)
        #expect(end == .endOfBody)
        #expect(bytes == Array(repeating: UInt8(ascii: "a"), count: 3000) + Array("end".utf8))
        #expect(times.count >= 4, "the first chunk in steps of at most 1000 bytes, then the second")
        #expect(times[times.count - 2] >= 0.09, "3000 bytes at 20 000 B/s, the first 1000 at once: 0.1 s")
        #expect(times[times.count - 1] >= 0.3, "the second chunk when it is due")
        #expect(connection.suspensions == connection.resumptions)
    }

    /// Ending a paced body ends the stream waiting inside it: the connection, suspended by the stream, is
    /// resumed and reads the end at once.
    @Test func endingAPacedStreamEndsTheStreamInside() throws {
        let stream = ResponseStream(
            framing: .raw, chunks: [StreamChunk(delay: 30, content: .literal(Array("late".utf8)))], repeats: true,
            derivedContentType: "text/plain", configured: .null)
        let connection = FakeConnection()
        let inner = StreamBody(
            try Self.streamAnswer(stream), start: MonotonicClock.now(), connection: connection, onClose: nil)
        let body = PacedBody(inner, size: nil, bytesPerSecond: 1000, connection: connection, onClose: nil)
        #expect(body.isEndless, "as endless as the stream")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        #expect(body.read(at: 0, into: buffer) == .suspended)
        #expect(connection.suspensions == 1)
        body.end(.endOfBody)
        #expect(connection.resumptions == 1)
        #expect(body.read(at: 0, into: buffer) == .endOfBody)
        body.closed()
    }

    /// A known body cut short: the first half of its bytes, from memory or from a file, then a break.
    @Test func aKnownBodyCutShortBreaksAfterItsHalf() throws {
        let bytes = Array("0123456789".utf8)
        let owner = HeapBytes(copying: bytes)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "espressomartini-known-\(UUID().uuidString)"
        ).path
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { unlink(path) }
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0)
        for body in [
            KnownBody(.memory(owner.bytes, owner: owner), count: 10, cutAfter: 5),
            KnownBody(.file(descriptor: descriptor), count: 10, cutAfter: 5),
        ] {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 1)
            defer { buffer.deallocate() }
            var sent: [UInt8] = []
            var read = body.read(at: 0, into: buffer)
            while case .bytes(let count) = read {
                sent += buffer[..<count]
                read = body.read(at: UInt64(sent.count), into: buffer)
            }
            #expect(sent == Array("01234".utf8))
            #expect(read == .broken)
        }
    }

    /// The connection's loop ends a waiting body once its client closes the connection.
    @Test func aClientThatLeavesEndsItsWaitingBody() throws {
        var sockets: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &sockets) == 0)
        defer { close(sockets[0]) }
        let connection = FakeConnection(socket: sockets[0])
        let body = HandedBody(connection: connection)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 8, alignment: 1)
        defer { buffer.deallocate() }
        #expect(body.read(at: 0, into: buffer) == .suspended)
        close(sockets[1])
        #expect(connection.wait(timeout: 5) { connection.resumptions == 1 })
        #expect(body.read(at: 0, into: buffer) == .broken)
        body.closed()
    }

    static func streamAnswer(_ stream: ResponseStream) throws -> StreamAnswer {
        let fixture = ServerFixture([(.get, "/s", [ConfiguredResponse(.stream(ResponseContent(), stream, nil))])])
        guard
            case .stream(let answer) = fixture.decider.decide(
                Request(method: "GET", path: "/s"), tree: fixture.service.tree)
        else {
            throw TestFailure(description: "not a stream")
        }
        return answer
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
    }
}
