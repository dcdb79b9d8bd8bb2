import EspressoMartini
import EspressoMartiniJansson
import Testing

/// Faults (doc/faults-and-sessions.md) in decisions, the listing and explanations.
@Suite struct FaultDecisionTests {
    static let files = [
        "cut/GET/configuration.json":
            #"[{"fault": "truncated_body", "body": "abcd", "delay": 0.5}, {"fault": "empty_response"}, {"body": "ok"}]"#,
        "plain/GET/configuration.json": #"{"body": "plain"}"#,
    ]

    @Test func aFaultIsCountedAndReportedWithStatus0() throws {
        let fixture = try DeciderFixture(files: Self.files)
        let first = fixture.decide("GET", "/cut")
        #expect(first.summary == "after 0.5 s: fault truncated_body GET /cut 0")
        #expect(first.statusCode == 0)
        #expect(fixture.decide("GET", "/cut").summary == "fault empty_response GET /cut 1")
        #expect(fixture.decide("GET", "/cut").statusCode == 200)
    }

    @Test func eachResponseHasItsSendingPlan() throws {
        let fixture = try DeciderFixture(files: Self.files)
        let tree = fixture.service.tree
        #expect(
            (0..<3).map { tree.sendingPlan(tree.slot(exchangeAt: 0, position: $0)).kind } == [
                .fault, .fault, .prebuilt,
            ])
        #expect(tree.sendingPlan(tree.slot(exchangeAt: 0, position: 0)).hasOwnDelay)
        #expect(!tree.sendingPlan(tree.slot(exchangeAt: 1, position: 0)).hasOwnDelay)
    }

    @Test func theListingAndTheExplanationNameTheFault() throws {
        let fixture = try DeciderFixture(files: Self.files)
        let tree = fixture.service.tree.exchangeTree
        #expect(
            tree.listing.contains(
                "GET  /cut    1: 200 body \"abcd\" delay 0.5s fault truncated_body · 2: 200 no body fault empty_response · 3: 200 body \"ok\"\n"
            ), "\(tree.listing)")
        #expect(tree.listingJSON.compactText.contains(#""delay":0.5,"fault":"truncated_body"}"#))
        let explanation = Explanation(
            explaining: ExplanationFixture.request("GET", "/cut"), in: fixture.service.tree, decider: fixture.decider)
        #expect(
            explanation.text.contains("response: 200 body \"abcd\" delay 0.5s fault truncated_body\n"),
            "\(explanation.text)")
        #expect(explanation.json.compactText.contains(#""fault":"truncated_body""#))
    }
}
