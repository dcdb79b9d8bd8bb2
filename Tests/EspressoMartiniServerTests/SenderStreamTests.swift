@testable import EspressoMartiniServer
import EspressoMartini
import Testing

/// Streams and slowed answers on fake connections: what is queued, what the journal and the access log
/// say, and that shut-down ends every body still arriving.
@Suite struct SenderStreamTests {
    static let stream = ResponseStream(
        framing: .serverSentEvents, chunks: [StreamChunk(delay: 30, content: .literal(Array("data: late\n\n".utf8)))],
        repeats: false,
        derivedContentType: ResponseStream.eventStream, configured: .null
    )

    @Test func aStreamIsQueuedWithItsHeadersAndRecordedOnce() {
        var configuration = ServerConfiguration()
        configuration.cors = true
        let fixture = ServerFixture(
            [(.get, "/events", [ConfiguredResponse(.stream(ResponseContent(statusCode: 201), Self.stream, nil))])],
            configuration: configuration)
        let (connection, handled) = fixture.request(
            "GET", "/events", headers: [HTTPHeader(name: "Origin", value: "http://app.test")])
        #expect(handled)
        #expect(connection.queued.map(\.status) == [201])
        let headers = connection.queued.first?.response.headers ?? []
        #expect(headers.contains(HTTPHeader(name: "Content-Type", value: "text/event-stream")))
        #expect(headers.contains(HTTPHeader(name: "Access-Control-Allow-Origin", value: "http://app.test")))
        #expect(fixture.journal.entries.map(\.status) == [201])
        #expect(fixture.accessLog.all.map(\.status) == [201])
        #expect(connection.suspensions == 0, "the headers go out at once; only the body waits")
    }

    /// Shut-down ends the streams that repeat at once, then every body still arriving; a body made while
    /// the server stops is ended as it is made.
    @Test func shutDownEndsTheBodiesStillArriving() {
        let repeating = ResponseStream(
            framing: .raw, chunks: [StreamChunk(delay: 30, content: .literal(Array("x".utf8)))], repeats: true,
            derivedContentType: "text/plain", configured: .null)
        let fixture = ServerFixture([(.get, "/s", [ConfiguredResponse(.stream(ResponseContent(), Self.stream, nil))])])
        let sender = Sender(accessLog: nil, journal: nil, cors: false, scripts: fixture.scripts)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        func body(_ stream: ResponseStream) -> (StreamBody, FakeConnection) {
            let connection = FakeConnection()
            let answer = try! ArrivingBodyTests.streamAnswer(stream)
            let made = sender.track(
                StreamBody(
                    answer, start: MonotonicClock.now(), connection: connection,
                    watchesHangUps: false, onClose: sender.forgetBody))
            #expect(made.read(at: 0, into: buffer) == .suspended)
            return (made, connection)
        }
        let (finite, finiteConnection) = body(Self.stream)
        let (endless, endlessConnection) = body(repeating)
        #expect(sender.arriving.withLock { $0.bodies.count } == 2)
        sender.endArrivingBodies(endlessOnly: true)
        #expect(endlessConnection.resumptions == 1 && finiteConnection.resumptions == 0)
        #expect(endless.read(at: 0, into: buffer) == .endOfBody)
        sender.resumeAll(scriptLimit: 0.01)
        #expect(finiteConnection.resumptions == 1)
        #expect(finite.read(at: 0, into: buffer) == .endOfBody)
        let late = sender.track(
            StreamBody(
                try! ArrivingBodyTests.streamAnswer(Self.stream), start: MonotonicClock.now(),
                connection: FakeConnection(), watchesHangUps: false, onClose: sender.forgetBody))
        #expect(late.read(at: 0, into: buffer) == .endOfBody)
        for done in [finite, endless, late] { done.closed() }
        #expect(sender.arriving.withLock { $0.bodies.isEmpty }, "libmicrohttpd done with them, the sender forgets them")
    }

    /// A slowed fixed answer is read once and shared by every request, like a fixed answer at full speed.
    @Test func aSlowedFixedAnswerIsSharedBetweenRequests() {
        let slow = NetworkCondition(bandwidth: Bandwidth(bytesPerSecond: 1000))
        let fixture = ServerFixture([
            (.get, "/slow", [ConfiguredResponse(body: .inline(.string("slow body")), network: slow)])
        ])
        let first = fixture.request("GET", "/slow").0.queued
        let second = fixture.request("GET", "/slow").0.queued
        #expect(first.map(\.status) == [200] && second.map(\.status) == [200])
        #expect(
            first.first.map { ObjectIdentifier($0.response) } != second.first.map { ObjectIdentifier($0.response) },
            "a response each")
        #expect(fixture.service.tree.built.isBuilt(0), "the bytes, once")
        #expect(first.first?.response.headers == [HTTPHeader(name: "Content-Type", value: "text/plain; charset=utf-8")])
    }

    /// A script's answer on a slow link is paced once the script has run, like any answer.
    @Test func aScriptsAnswerIsPacedToo() {
        let script = ResponseScript(
            source: "", file: "s.js", inlinePosition: nil, route: "/s", methodFolderRealPath: "/nonexistent",
            rootRealPath: "/nonexistent")
        let slow = NetworkCondition(bandwidth: Bandwidth(bytesPerSecond: 10))
        let fixture = ServerFixture([(.get, "/s", [ConfiguredResponse(.script(script), network: slow)])])
        guard
            case .throttled(10, .script) = fixture.decider.decide(
                Request(method: "GET", path: "/s"), tree: fixture.service.tree)
        else {
            Issue.record("a slowed script is decided as a throttled script")
            return
        }
        let (connection, handled) = fixture.request("GET", "/s")
        #expect(handled)
        #expect(connection.suspensions == 1 && connection.resumptions == 1, "suspended while the script ran")
        #expect(connection.queued.map(\.status) == [418])
        #expect(connection.queued.first?.response.headers.isEmpty == true, "the script's own headers: none")
    }
}
