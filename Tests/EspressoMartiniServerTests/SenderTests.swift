@testable import EspressoMartiniServer
import EspressoMartini
import Testing

/// The sender and the server's request handling with fake connections and a fake script engine: what is
/// queued for each kind of decision, what the journal and the access log then say.
@Suite struct SenderTests {
    static let global = [HTTPHeader(name: "X-Global", value: "g")]

    static func configuration(cors: Bool = false) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.headers = global
        configuration.cors = cors
        return configuration
    }

    @Test func aFixedResponseIsBuiltOnceAndSharedByEveryRequest() {
        let fixture = ServerFixture(
            [(.get, "/hello", [ConfiguredResponse(body: .inline(.string("hi")))])], configuration: Self.configuration())
        let first = fixture.request("GET", "/hello").0.queued
        let second = fixture.request("GET", "/hello").0.queued
        #expect(first.map(\.status) == [200] && second.map(\.status) == [200])
        #expect(first.first.map { ObjectIdentifier($0.response) } == second.first.map { ObjectIdentifier($0.response) })
        #expect(
            first.first?.response.headers == [HTTPHeader(name: "Content-Type", value: "text/plain; charset=utf-8")]
                + Self.global)
        #expect(fixture.journal.entries.map(\.status) == [200, 200])
        #expect(fixture.accessLog.all.map(\.status) == [200, 200])
    }

    @Test func withCORSARequestFromAnOriginGetsItEchoed() {
        let fixture = ServerFixture(
            [(.get, "/hello", [ConfiguredResponse(body: .inline(.string("hi")))])],
            configuration: Self.configuration(cors: true))
        let plain = fixture.request("GET", "/hello").0.queued
        let fromApp = fixture.request("GET", "/hello", headers: [HTTPHeader(name: "Origin", value: "http://app.test")])
            .0.queued
        #expect(plain.first?.response.headers.contains(HTTPHeader(name: "Vary", value: "Origin")) == true)
        #expect(plain.first?.response.headers.contains { $0.name == "Access-Control-Allow-Origin" } == false)
        #expect(
            fromApp.first?.response.headers.contains(
                HTTPHeader(name: "Access-Control-Allow-Origin", value: "http://app.test")) == true)
    }

    @Test func aScriptSuspendsTheConnectionAndItsAnswerIsWhatTheJournalAndTheLogRecord() {
        let script = ResponseScript(
            source: "", file: "s.js", inlinePosition: nil, route: "/s", methodFolderRealPath: "/nonexistent",
            rootRealPath: "/nonexistent")
        let fixture = ServerFixture([(.get, "/s", [ConfiguredResponse(.script(script))])])
        let (connection, handled) = fixture.request(
            "GET", "/s?x=1", headers: [HTTPHeader(name: "X-Espressomartini-Session", value: "run-1")])
        #expect(handled)
        #expect(connection.suspensions == 1 && connection.resumptions == 1)
        #expect(connection.queued.map(\.status) == [418])
        #expect(fixture.scripts.jobs.count == 1)
        #expect(fixture.scripts.jobs.first?.answer.call == 1)
        #expect(fixture.scripts.jobs.first?.model.request.rawQuery == "x=1")
        #expect(fixture.scripts.jobs.first?.cache === fixture.service.sessions.existing(named: "run-1")?.cache)
        #expect(fixture.journal.entries.map(\.status) == [418])
        #expect(fixture.accessLog.all.map(\.status) == [418])
        #expect(fixture.accessLog.all.first?.session == "run-1")
    }

    @Test func whileStoppingAScriptIsAnswered503() {
        let script = ResponseScript(
            source: "", file: "s.js", inlinePosition: nil, route: "/s", methodFolderRealPath: "/nonexistent",
            rootRealPath: "/nonexistent")
        let fixture = ServerFixture([(.get, "/s", [ConfiguredResponse(.script(script))])])
        fixture.scripts.stop()
        let (connection, _) = fixture.request("GET", "/s")
        #expect(connection.suspensions == 0)
        #expect(connection.queued.map(\.status) == [503])
        #expect(fixture.journal.entries.map(\.status) == [503])
    }

    @Test func aFileThatCannotBeReadIsA500() throws {
        let fixture = ServerFixture([
            (
                .get, "/gone",
                [ConfiguredResponse(body: .file(name: "gone.json", path: "/nonexistent/gone.json", size: 3))]
            )
        ])
        let (connection, _) = fixture.request("GET", "/gone")
        #expect(connection.queued.map(\.status) == [500])
        #expect(fixture.journal.entries.map(\.status) == [500], "the journal says what was sent")
        #expect(fixture.accessLog.all.map(\.status) == [500])
    }

    @Test func aDelayWaitsWithoutAThreadAndThenSends() {
        let fixture = ServerFixture([(.get, "/late", [ConfiguredResponse(statusCode: 202, delay: 0.05)])])
        let (connection, handled) = fixture.request("GET", "/late")
        #expect(handled && connection.suspensions == 1 && connection.resumptions == 1)
        #expect(connection.queued.map(\.status) == [202])
        #expect(fixture.journal.entries.map(\.status) == [202])
    }

    @Test(arguments: [(ResponseFault.emptyResponse, 0), (.connectionReset, 1)])
    func aFaultClosesTheConnectionAndIsLoggedWithStatus0(_ fault: ResponseFault, _ resets: Int) {
        let fixture = ServerFixture([
            (.get, "/broken", [ConfiguredResponse(body: .inline(.string("abcd")), fault: fault)])
        ])
        let (connection, handled) = fixture.request("GET", "/broken")
        #expect(!handled, "the connection is closed without an answer")
        #expect(connection.queued.isEmpty && connection.resets == resets)
        #expect(fixture.journal.entries.map(\.status) == [0] && fixture.accessLog.all.map(\.status) == [0])
    }

    @Test func aTruncatedBodyAnnouncesTheWholeLength() {
        let fixture = ServerFixture([
            (.get, "/cut", [ConfiguredResponse(body: .inline(.string("abcd")), fault: .truncatedBody)])
        ])
        let (connection, handled) = fixture.request("GET", "/cut")
        #expect(handled && connection.queued.map(\.status) == [200])
        #expect(fixture.journal.entries.map(\.status) == [0])
    }

    @Test func theServerKeepsTheBodyForAnExchangeThatReadsIt() throws {
        let variants = [
            Variant(conditions: VariantConditions([.body(Matcher(.equals("yes")))]), when: nil, responses: 0..<1),
            Variant(conditions: VariantConditions([]), when: nil, responses: 1..<2),
        ]
        let exchange = (
            HTTPMethod.post, "/answer", [ConfiguredResponse(statusCode: 201), ConfiguredResponse(statusCode: 409)]
        )
        let fixture = ServerFixture([exchange], variants: [variants])
        #expect(fixture.request("POST", "/answer", body: "yes").0.queued.map(\.status) == [201])
        #expect(fixture.request("POST", "/answer", body: "no").0.queued.map(\.status) == [409])
        #expect(fixture.journal.entries.map { String(decoding: $0.body, as: UTF8.self) } == ["yes", "no"])
    }

    @Test func aSessionHeaderNamingNoSessionIsA400() {
        let fixture = ServerFixture([(.get, "/hello", [ConfiguredResponse()])])
        let (connection, _) = fixture.request(
            "GET", "/hello",
            headers: [HTTPHeader(name: "X-Espressomartini-Session", value: String(repeating: "x", count: 300))])
        #expect(connection.queued.map(\.status) == [400])
    }
}
