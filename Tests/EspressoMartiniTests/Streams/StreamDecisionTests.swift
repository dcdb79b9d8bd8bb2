import EspressoMartini
import Testing

/// What a request gets from a stream or on a slow network (doc/streams-and-networks.md), decided
/// in-process; and how `endpoints` and `explain` show it.
@Suite struct StreamDecisionTests {
    static let tree = [
        "events/GET/configuration.json": #"""
        {"headers": {"X-Own": "1"}, "stream": [{"delay": 0.1, "id": "1", "data": "a"}, {"delay": 0.2, "data": {"b": 2}}], "stream_repeat": true}
        """#,
        "ticks/GET/configuration.json": #"""
        {"template": true, "headers": {"X-Call": "{{call}}"},
         "stream": [{"id": "{{call}}", "data": {"path": "{{request.path}}", "q": "{{request.queryParameters.q}}"}}]}
        """#,
        "slow/GET/configuration.json": #"{"body": "slow", "bandwidth": "8kbit", "delay": 0.5}"#,
        "mobile/GET/configuration.json":
            #"{"responses": [{"body": "a"}, {"body": "b", "network": "none"}, {"fault": "empty_response"}], "network": "edge"}"#,
        "plain/GET/configuration.json": #"{"body": "fast"}"#,
    ]

    @Test func aStreamIsOneCallWithItsHeadersDecided() throws {
        let fixture = try DeciderFixture(
            files: Self.tree,
            configuration: {
                var configuration = ServerConfiguration()
                configuration.headers = [HTTPHeader(name: "X-Global", value: "g")]
                return configuration
            }())
        let decision = fixture.decide("GET", "/events")
        guard case .stream(let stream) = decision else { Issue.record("\(decision.summary)"); return }
        #expect(decision.statusCode == 200)
        #expect(
            stream.headers == [
                HTTPHeader(name: "X-Own", value: "1"), HTTPHeader(name: "Content-Type", value: "text/event-stream"),
                HTTPHeader(name: "X-Global", value: "g"),
            ])
        #expect(String(decoding: stream.bytes(ofChunk: 1), as: UTF8.self) == "data: {\"b\":2}\n\n")
        #expect(fixture.service.tree.counter(exchangeAt: 0).value == 1, "a stream is one call, however long it lasts")
        #expect(fixture.journal.entries.map(\.status) == [200])
    }

    @Test func aTemplatedStreamRendersItsHeadersNowAndEachChunkWhenSent() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        _ = fixture.decide("GET", "/ticks")
        guard case .stream(let stream) = fixture.decide("GET", "/ticks?q=x%22y") else {
            Issue.record("not a stream"); return
        }
        #expect(stream.headers.first == HTTPHeader(name: "X-Call", value: "2"))
        #expect(
            String(decoding: stream.bytes(ofChunk: 0), as: UTF8.self)
                == "id: 2\ndata: {\"path\":\"/ticks\",\"q\":\"x\\\"y\"}\n\n")
    }

    /// A bandwidth throttles the answer after its own delay; a profile adds its latency to the delay; a
    /// fault breaks at full speed after the latency; `none` lifts the exchange's profile.
    @Test func aSlowNetworkWrapsTheAnswer() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        #expect(fixture.decide("GET", "/slow").summary == "after 0.5 s: at 1000.0 B/s: 200 GET /slow 0")
        #expect(fixture.decide("GET", "/mobile").summary == "after 0.4 s: at 30000.0 B/s: 200 GET /mobile 0")
        #expect(fixture.decide("GET", "/mobile").summary == "200 GET /mobile 1")
        #expect(fixture.decide("GET", "/mobile").summary == "after 0.4 s: fault empty_response GET /mobile 2")
        #expect(fixture.decide("GET", "/plain").summary == "200 GET /plain 0")
    }

    /// The server's network applies where the tree gives none; the tree's own wins.
    @Test func theServersNetworkIsTheLeastSpecific() throws {
        var configuration = ServerConfiguration()
        configuration.network = NetworkCondition(profile: .lte)
        let fixture = try DeciderFixture(files: Self.tree, configuration: configuration)
        #expect(fixture.decide("GET", "/plain").summary == "after 0.05 s: at 1500000.0 B/s: 200 GET /plain 0")
        #expect(fixture.decide("GET", "/slow").summary == "after 0.55 s: at 1000.0 B/s: 200 GET /slow 0")
        guard case .delayed(_, .throttled(_, .stream)) = fixture.decide("GET", "/events") else {
            Issue.record("a stream is paced too"); return
        }
    }

    @Test func theListingShowsStreamsAndNetworks() throws {
        let fixture = try DeciderFixture(files: Self.tree)
        let tree = fixture.service.tree.exchangeTree
        #expect(
            tree.listing == """
                GET  /events  1: 200 stream of 2 events, repeated
                GET  /mobile  1: 200 body "a" network edge · 2: 200 body "b" network none · 3: 200 no body network edge fault empty_response
                GET  /plain   1: 200 body "fast"
                GET  /slow    1: 200 body "slow" delay 0.5s bandwidth 8kbit
                GET  /ticks   1: 200 stream of 1 event template

                """)
        let json = tree.listingJSON.compactText
        #expect(
            json.contains(
                #"{"status_code":200,"headers":{"X-Own":"1"},"stream":[{"delay":0.1,"id":"1","data":"a"},{"delay":0.2,"data":{"b":2}}],"stream_repeat":true,"delay":null}"#
            ))
        #expect(json.contains(#"{"status_code":200,"headers":{},"body":"slow","delay":0.5,"bandwidth":"8kbit"}"#))
        #expect(json.contains(#"{"status_code":200,"headers":{},"body":"a","delay":null,"network":"edge"}"#))
    }

    @Test func explainSaysWhichNetworkTheAnswerGoesOutOn() throws {
        var configuration = ServerConfiguration()
        configuration.network = NetworkCondition(bandwidth: Bandwidth(bytesPerSecond: 512))
        let fixture = try DeciderFixture(files: Self.tree, configuration: configuration)
        let slow = Explanation(
            explaining: ExplanationFixture.request("GET", "/mobile"), in: fixture.service.tree, decider: fixture.decider
        )
        #expect(
            slow.text.contains(
                "response: 200 body \"a\" network edge\nnetwork:  edge: 0.4s before the first byte, then the body at 240kbit (30000 bytes/s)\n"
            ))
        #expect(slow.json.compactText.contains(#""network":{"profile":"edge","bytes_per_second":30000,"latency":0.4}"#))
        let plain = Explanation(
            explaining: ExplanationFixture.request("GET", "/plain"), in: fixture.service.tree, decider: fixture.decider)
        #expect(plain.text.contains("network:  bandwidth: the body at 512 B/s (512 bytes/s)\n"))
        let events = Explanation(
            explaining: ExplanationFixture.request("GET", "/events"), in: fixture.service.tree, decider: fixture.decider
        )
        #expect(
            events.text.contains(
                "response: 200 stream of 2 events, repeated\nnetwork:  bandwidth: the body at 512 B/s (512 bytes/s)\n"))
    }
}
