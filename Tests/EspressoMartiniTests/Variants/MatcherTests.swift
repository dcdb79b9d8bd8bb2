import EspressoMartini
import Testing

@Suite struct MatcherTests {
    /// Compiles the value of `"m"` in `document`; the matcher and the diagnostics as printed.
    static func compile(_ document: String, _ context: Matcher.Context = .text) -> (Matcher?, [String]) {
        var diagnostics = Diagnostics()
        let map = JSONSourceMap(Array(document.utf8))
        guard case .object(let members) = json(document), let value = members.first?.value else {
            fatalError("no matcher")
        }
        let matcher = Matcher.compile(
            value, at: [members[0].key], in: context, file: "c.json", map: map, into: &diagnostics)
        return (matcher, diagnostics.all.map(\.description))
    }

    static func matcher(_ text: String, _ context: Matcher.Context = .text) -> Matcher {
        let (matcher, diagnostics) = compile(#"{"m": \#(text)}"#, context)
        #expect(diagnostics.isEmpty, "\(text)")
        return matcher ?? Matcher(.present(true))
    }

    @Test(
        arguments: [
            (
                #"{"m": 7}"#, Matcher.Context.text,
                #"c.json:1:7: error: a matcher is a string or an object with one of 'equals', 'contains', 'prefix', 'regex', 'present', found an integer; write "7" to compare as text"#
            ),
            (
                #"{"m": [1]}"#, .text,
                "c.json:1:7: error: a matcher is a string or an object with one of 'equals', 'contains', 'prefix', 'regex', 'present', found an array"
            ),
            (
                #"{"m": 7}"#, .json,
                #"c.json:1:7: error: a matcher is a string or an object with one of 'equals', 'contains', 'prefix', 'regex', 'present', found an integer; to compare with 7, write {"equals": 7}"#
            ),
            (
                #"{"m": {}}"#, .text,
                "c.json:1:7: error: a matcher needs one of 'equals', 'contains', 'prefix', 'regex', 'present', found an empty object"
            ),
            (
                #"{"m": {"regexp": "a"}}"#, .text,
                "c.json:1:8: error: unknown matcher key 'regexp'; a matcher has one of 'equals', 'contains', 'prefix', 'regex', 'present'; did you mean 'regex'?"
            ),
            (
                #"{"m": {"zzz": "a"}}"#, .text,
                "c.json:1:8: error: unknown matcher key 'zzz'; a matcher has one of 'equals', 'contains', 'prefix', 'regex', 'present'"
            ),
            (
                #"{"m": {"contains": "a",\n "prefix": "b"}}"#, .text,
                "c.json:2:2: error: 'contains' and 'prefix' cannot both be given in one matcher; keep one of them"
            ),
            (
                #"{"m": {"equals": 2}}"#, .text,
                #"c.json:1:18: error: 'equals' must be a string, found an integer; the request's values are text here, write "2""#
            ),
            (#"{"m": {"equals": {"a": 1}}}"#, .text, "c.json:1:18: error: 'equals' must be a string, found an object"),
            (#"{"m": {"contains": true}}"#, .text, "c.json:1:20: error: 'contains' must be a string, found a boolean"),
            (#"{"m": {"prefix": null}}"#, .json, "c.json:1:18: error: 'prefix' must be a string, found null"),
            (#"{"m": {"regex": 1}}"#, .json, "c.json:1:17: error: 'regex' must be a string, found an integer"),
            (
                #"{"m": {"present": "yes"}}"#, .text,
                "c.json:1:19: error: 'present' must be true or false, found a string"
            ),
        ] as [(String, Matcher.Context, String)])
    func reportsLoadErrorsWithPositions(_ document: String, _ context: Matcher.Context, _ message: String) {
        let (matcher, diagnostics) = Self.compile(document.replacing("\\n", with: "\n"), context)
        #expect(matcher == nil)
        #expect(diagnostics == [message])
    }

    @Test(arguments: ["(a", "[a-", "a{2,1}", "(?<n>a)(?<n>b)", "\\p{NotAProperty}", "*a"])
    func reportsARegexThatDoesNotCompileWithItsOwnError(_ pattern: String) {
        var escaped = ""
        for character in pattern { escaped += character == "\\" ? "\\\\" : String(character) }
        let (matcher, diagnostics) = Self.compile(#"{"m": {"regex": "\#(escaped)"}}"#)
        #expect(matcher == nil)
        #expect(diagnostics.count == 1)
        let prefix = "c.json:1:17: error: 'regex' \"\(escaped)\" does not compile: "
        #expect(diagnostics.first?.hasPrefix(prefix) == true, "\(diagnostics)")
        #expect((diagnostics.first?.count ?? 0) > prefix.count + 3, "the regex's own error text follows")
    }

    @Test func reportsEveryProblemOfOneMatcher() {
        let (matcher, diagnostics) = Self.compile(#"{"m": {"equals": 1, "prefix": "a", "bogus": 2}}"#)
        #expect(matcher == nil)
        #expect(diagnostics.count == 3)
    }

    /// Values a name has → whether the matcher holds.
    @Test(
        arguments: [
            (#""2""#, [], false),
            (#""2""#, ["2"], true),
            (#""2""#, ["3"], false),
            (#""2""#, ["3", "2"], true),
            (#""2""#, ["2 "], false),
            (#"{"equals": ""}"#, [""], true),
            (#"{"equals": ""}"#, [], false),
            (#"{"contains": "da"}"#, ["Ada"], true),
            (#"{"contains": "DA"}"#, ["Ada"], false),
            (#"{"contains": ""}"#, ["x"], true),
            (#"{"contains": ""}"#, [], false),
            (#"{"prefix": "Bearer "}"#, ["Bearer abc"], true),
            (#"{"prefix": "Bearer "}"#, ["bearer abc"], false),
            (#"{"prefix": "Bearer "}"#, ["Basic x", "Bearer y"], true),
            (#"{"regex": "\\d+"}"#, ["123"], true),
            (#"{"regex": "\\d+"}"#, ["123a"], false),
            (#"{"regex": "\\d+"}"#, ["a123"], false),
            (#"{"regex": "\\d+"}"#, [""], false),
            (#"{"regex": "(?i)ada.*"}"#, ["ADA Lovelace"], true),
            (#"{"regex": "(?i)ada.*"}"#, ["Lady Ada"], false),
            (#"{"regex": "[a-z]+"}"#, ["abc", "ABC"], true),
            (#"{"regex": "a|b"}"#, ["b"], true),
            (#"{"regex": "a|b"}"#, ["ab"], false),
            (#"{"regex": "(a)(b)?"}"#, ["a"], true),
            (#"{"present": true}"#, [], false),
            (#"{"present": true}"#, [""], true),
            (#"{"present": false}"#, [], true),
            (#"{"present": false}"#, ["x"], false),
        ] as [(String, [String], Bool)])
    func holdsWhenAnyValueSatisfiesIt(_ matcher: String, _ values: [String], _ holds: Bool) {
        let matcher = Self.matcher(matcher)
        #expect(matcher.holds(for: values) == holds)
        #expect((matcher.mismatch(for: values, subject: "query \"q\"") == nil) == holds)
    }

    /// The value at a JSON Pointer (nil: none) → whether a `json` matcher holds.
    @Test(
        arguments: [
            (#""Ada""#, #""Ada""#, true),
            (#""42""#, "42", false),
            (#"{"equals": 42}"#, "42.0", true),
            (#"{"equals": 42}"#, #""42""#, false),
            (#"{"equals": {"a": [1, 2], "b": null}}"#, #"{"b": null, "a": [1.0, 2]}"#, true),
            (#"{"equals": null}"#, "null", true),
            (#"{"equals": null}"#, nil, false),
            (#"{"contains": "4"}"#, "42", false),
            (#"{"contains": "4"}"#, #""42""#, true),
            (#"{"prefix": "A"}"#, #""Ada""#, true),
            (#"{"regex": "(?i)ada.*"}"#, #""ada lovelace""#, true),
            (#"{"regex": "(?i)ada.*"}"#, "42", false),
            (#"{"regex": "\\d+"}"#, "42", false),
            (#"{"present": true}"#, "null", true),
            (#"{"present": true}"#, nil, false),
            (#"{"present": false}"#, nil, true),
            (#"{"present": false}"#, "false", false),
        ] as [(String, String?, Bool)])
    func holdsOnAJSONValue(_ matcher: String, _ value: String?, _ holds: Bool) {
        let matcher = Self.matcher(matcher, .json)
        #expect(matcher.holds(for: value.map(json)) == holds)
        #expect((matcher.mismatch(for: value.map(json), subject: "json \"/a\"") == nil) == holds)
    }

    @Test(
        arguments: [
            (#""2""#, ["3"], #"query "page" is "3", expected "2""#),
            (#""2""#, [], #"query "page" is missing, expected "2""#),
            (#""2""#, ["3", "4"], #"query "page" has "3" and "4", expected "2""#),
            (#""2""#, ["3", "4", "5"], #"query "page" has "3", "4" and "5", expected "2""#),
            (
                #""2""#, ["a", "b", "c", "d", "e", "f", "g"],
                #"query "page" has "a", "b", "c", "d", "e" and 2 more, expected "2""#
            ),
            (#"{"contains": "x"}"#, ["abc"], #"query "page" is "abc", expected a value containing "x""#),
            (
                #"{"prefix": "Bearer "}"#, ["Basic"],
                #"query "page" is "Basic", expected a value starting with "Bearer ""#
            ),
            (#"{"regex": "\\d+"}"#, ["x"], #"query "page" is "x", expected a value matching \d+"#),
            (#"{"present": true}"#, [], #"query "page" is missing"#),
            (#"{"present": false}"#, ["1"], #"query "page" is "1", expected it to be absent"#),
            (#""a\"b""#, ["a\nb"], #"query "page" is "a\nb", expected "a\"b""#),
        ] as [(String, [String], String)])
    func saysWhatTheRequestHad(_ matcher: String, _ values: [String], _ message: String) {
        #expect(Self.matcher(matcher).mismatch(for: values, subject: #"query "page""#) == message)
    }

    @Test func shortensLongValuesInMessages() {
        let long = String(repeating: "x", count: 1000)
        let message = Self.matcher(#""y""#).mismatch(for: [long], subject: "body")
        #expect(message == "body is \"" + String(repeating: "x", count: 80) + "\"…, expected \"y\"")
    }

    @Test(
        arguments: [
            (#"{"regex": "(?i)ada.*"}"#, "42", #"json "/user/name" is 42, expected a string matching (?i)ada.*"#),
            (#"{"equals": 7}"#, "8", #"json "/user/name" is 8, expected 7"#),
            (#"{"equals": {"a": 1}}"#, #"{"a": 2}"#, #"json "/user/name" is {"a":2}, expected {"a":1}"#),
            (#""Ada""#, nil, #"json "/user/name" is missing, expected "Ada""#),
            (#"{"present": true}"#, nil, #"json "/user/name" is missing"#),
            (#"{"present": false}"#, "null", #"json "/user/name" is null, expected it to be absent"#),
            (#"{"contains": "a"}"#, "[1]", #"json "/user/name" is [1], expected a string containing "a""#),
        ] as [(String, String?, String)])
    func saysWhatTheJSONHad(_ matcher: String, _ value: String?, _ message: String) {
        #expect(Self.matcher(matcher, .json).mismatch(for: value.map(json), subject: #"json "/user/name""#) == message)
    }

    @Test(
        arguments: [
            (#""2""#, Matcher.Context.text, "=2"),
            (#"{"equals": 2}"#, .json, "=2"),
            (#"{"equals": "a"}"#, .json, "=a"),
            (#"{"contains": "x"}"#, .text, " contains x"),
            (#"{"prefix": "x"}"#, .text, " starts with x"),
            (#"{"regex": "\\d+"}"#, .text, #" matches \d+"#),
            (#"{"present": true}"#, .text, " present"),
            (#"{"present": false}"#, .text, " absent"),
        ] as [(String, Matcher.Context, String)])
    func summarizes(_ matcher: String, _ context: Matcher.Context, _ summary: String) {
        #expect(Self.matcher(matcher, context).summary == summary)
    }
}
