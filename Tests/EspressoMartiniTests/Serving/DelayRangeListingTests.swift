import EspressoMartini
import Testing

/// How `endpoints` shows a response's delay range.
@Suite struct DelayRangeListingTests {
    @Test func theListingShowsTheRange() throws {
        let fixture = try DeciderFixture(files: [
            "uneven/GET/configuration.json": #"[{"delay": {"min": 0.2, "max": 1.5}}, {"delay": 2}]"#
        ])
        let tree = fixture.service.tree.exchangeTree
        #expect(tree.listing == "GET  /uneven  1: 200 no body delay 0.2–1.5s · 2: 200 no body delay 2s\n")
        #expect(
            tree.listingJSON.compactText.contains(
                #""delay":{"min":0.2,"max":1.5}},{"status_code":200,"headers":{},"delay":2"#))
    }
}
