import EspressoMartini
import Testing

@Suite struct SuggestionTests {
    static let responseKeys = ["status_code", "headers", "response_file", "body", "delay"]

    @Test(arguments: [
        ("status", "status_code"),
        ("header", "headers"),
        ("response", "response_file"),
        ("statuscode", "status_code"),
        ("Status_Code", "status_code"),
        ("stauts_code", "status_code"),
        ("delya", "delay"),
        ("bdy", "body"),
        ("responsefile", "response_file"),
        ("file", "response_file"),
        ("bod", "body"),
        ("x-status_code", "status_code"),
    ])
    func suggestsTheClosestResponseKey(_ word: String, _ suggestion: String) {
        #expect(Suggestion.closest(to: word, among: Self.responseKeys) == suggestion)
    }

    /// One or two letters (or none) are contained in most keys; that is no hint.
    @Test(arguments: ["zzz", "completely_unrelated", "timeout", "xy", "a", "de", ""])
    func suggestsNothingWhenNoKeyIsClose(_ word: String) {
        #expect(Suggestion.closest(to: word, among: Self.responseKeys) == nil)
    }

    @Test func suggestsNothingAmongNoKeys() {
        #expect(Suggestion.closest(to: "status", among: []) == nil)
    }

    @Test func unknownKeyMessages() {
        #expect(
            Suggestion.unknownKeyMessage("status", known: Self.responseKeys)
                == "unknown key 'status' is ignored; did you mean 'status_code'?")
        #expect(Suggestion.unknownKeyMessage("zzz", known: Self.responseKeys) == "unknown key 'zzz' is ignored")
    }
}
