import EspressoMartini
import EspressoMartiniJansson
import Testing

/// Sequence modes (doc/faults-and-sessions.md) as `Decider.decide` serves them, as `Explanation` foresees them and as the listing
/// shows them.
@Suite struct SequenceModeDecisionTests {
    static let files = [
        "loop/GET/configuration.json":
            #"{"responses": [{"status_code": 201}, {"status_code": 202}], "sequence": "loop"}"#,
        "once/GET/configuration.json":
            #"{"responses": [{"status_code": 201}, {"status_code": 202}], "sequence": "once"}"#,
        "last/GET/configuration.json": #"{"responses": [{"status_code": 201}, {"status_code": 202}]}"#,
        "variants/GET/configuration.json": #"""
        {"variants": [
          {"when": {"query": {"v": "1"}}, "responses": [{"status_code": 201}, {"status_code": 202}], "sequence": "once"},
          {"responses": [{"status_code": 203}, {"status_code": 204}], "sequence": "loop"}
        ]}
        """#,
    ]

    @Test(arguments: [
        ("/loop", [201, 202, 201, 202, 201]),
        ("/once", [201, 202, 410, 410]),
        ("/last", [201, 202, 202, 202]),
        ("/variants?v=1", [201, 202, 410]),
        ("/variants", [203, 204, 203]),
    ])
    func eachModePlaysItsSequence(_ target: String, _ statuses: [UInt32]) throws {
        let fixture = try DeciderFixture(files: Self.files)
        #expect(statuses.indices.map { _ in fixture.decide("GET", target).statusCode } == statuses)
    }

    @Test(arguments: [
        (
            "/once",
            #"{"error":"the 'once' sequence of GET /once has served all its responses; reset its counter to play it again","route":"/once"}"#
        ),
        (
            "/variants?v=1",
            #"{"error":"the 'once' sequence of variant 1 of GET /variants has served all its responses; reset its counter to play it again","route":"/variants"}"#
        ),
    ])
    func aOnceSequenceOverAnswers410NamingTheRoute(_ target: String, _ body: String) throws {
        let fixture = try DeciderFixture(files: Self.files)
        _ = fixture.decide("GET", target)
        _ = fixture.decide("GET", target)
        let over = fixture.decide("GET", target)
        #expect(over.summary == "410 " + body)
        #expect(over.headers.contains(HTTPHeader(name: "Content-Type", value: "application/json")))
    }

    @Test func aResetPlaysAOnceSequenceAgain() throws {
        let fixture = try DeciderFixture(files: Self.files)
        #expect((0..<3).map { _ in fixture.decide("GET", "/once").statusCode } == [201, 202, 410])
        _ = fixture.decide("POST", "/__espressomartini/reset?method=GET&route=/once")
        #expect(fixture.decide("GET", "/once").statusCode == 201)
    }

    /// Explained with the live counters, then decided: the same status each time, the mode named.
    @Test(arguments: ["/loop", "/once", "/variants?v=1", "/variants"])
    func theExplanationAgreesAndNamesTheMode(_ target: String) throws {
        let fixture = try DeciderFixture(files: Self.files)
        for _ in 0..<4 {
            let request = ExplanationFixture.request("GET", target)
            let explanation = Explanation(explaining: request, in: fixture.service.tree, decider: fixture.decider)
            #expect(explanation.json.compactText.contains(#""sequence":"\#(explanation.sequenceMode!.rawValue)""#))
            #expect(
                explanation.statusCode.map(UInt32.init)
                    == fixture.decider.decide(request, tree: fixture.service.tree).statusCode)
        }
    }

    @Test func theExplanationOfASequenceOverSaysSo() throws {
        let fixture = try DeciderFixture(files: Self.files)
        _ = fixture.decide("GET", "/once")
        _ = fixture.decide("GET", "/once")
        let explanation = Explanation(
            explaining: ExplanationFixture.request("GET", "/once"), in: fixture.service.tree, decider: fixture.decider)
        #expect(
            explanation.choice?.exchange == explanation.tree.exchanges.firstIndex { $0.route.description == "/once" })
        #expect(
            explanation.choice?.position == nil && explanation.choice?.variant == nil
                && explanation.plan.name == "sequence_over")
        #expect(explanation.text.contains("answer:   410 from GET /once: its 'once' sequence has served all 2 calls\n"))
        #expect(explanation.json.compactText.contains(#""status":410,"outcome":"sequence_over""#))
    }

    @Test func theListingShowsTheModes() throws {
        let fixture = try DeciderFixture(files: Self.files)
        let tree = fixture.service.tree.exchangeTree
        #expect(
            tree.listing == """
                GET  /last      1: 201 no body · 2: 202 no body
                GET  /loop      1: 201 no body · 2: 202 no body (sequence loop)
                GET  /once      1: 201 no body · 2: 202 no body (sequence once)
                GET  /variants  2 variants
                     variant 1 when query v=1: 1: 201 no body · 2: 202 no body (sequence once)
                     variant 2: 1: 203 no body · 2: 204 no body (sequence loop)

                """)
        let json = tree.listingJSON.compactText
        #expect(
            json.contains(
                #""route":"/loop","folder":"loop/GET","responses":[{"status_code":201,"headers":{},"delay":null},{"status_code":202,"headers":{},"delay":null}],"sequence":"loop""#
            ))
        #expect(
            json.contains(
                #""route":"/last","folder":"last/GET","responses":[{"status_code":201,"headers":{},"delay":null},{"status_code":202,"headers":{},"delay":null}],"sequence":"repeat_last""#
            ))
        #expect(json.contains(#""sequence":"once"}"#) && json.contains(#""sequence":"loop"}"#))
    }
}
