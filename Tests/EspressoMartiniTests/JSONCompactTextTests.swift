import EspressoMartini
import EspressoMartiniJansson
import Testing

@Suite struct JSONCompactTextTests {
    @Test(arguments: [
        (JSONValue.null, "null"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.integer(-42), "-42"),
        (.integer(Int64.max), "9223372036854775807"),
        (.real(2.5), "2.5"),
        (.real(.infinity), "null"),
        (.real(.nan), "null"),
        (.string(""), #""""#),
        (.string("plain é 日本 😀"), #""plain é 日本 😀""#),
        (.string("quote \" backslash \\ slash /"), #""quote \" backslash \\ slash /""#),
        (.string("line\nreturn\rtab\t"), #""line\nreturn\rtab\t""#),
        (.string("\u{0}\u{1}\u{8}\u{C}\u{1F}\u{7F}"), #""\u0000\u0001\b\f\u001f\#u{7F}""#),
        (.array([]), "[]"),
        (.object([]), "{}"),
        (.array([.integer(1), .array([.null]), .object([])]), "[1,[null],{}]"),
        (
            .object([JSONMember(key: "z", value: .integer(1)), JSONMember(key: "a\"", value: .array([.string("x")]))]),
            #"{"z":1,"a\"":["x"]}"#
        ),
    ])
    func compactText(_ value: JSONValue, _ text: String) {
        #expect(value.compactText == text)
    }

    /// In what is sent as it is written (`compactAnswerText`), whole numbers beyond 2^53, where Swift's own text
    /// has an exponent, are written as integers (the shortest digits that read back as the same double, then
    /// zeros); fractions and smaller whole numbers as before. `compactText` keeps the exponent, so that a tree's
    /// own files read back.
    @Test(arguments: [
        (1e20, "100000000000000000000"),
        (-1e20, "-100000000000000000000"),
        (12_345_678_901_234_567_890.0, "12345678901234567000"),
        (9_223_372_036_854_775_807.0, "9223372036854776000"),
        (9_007_199_254_740_994.0, "9007199254740994"),
        (1.5e300, "15" + String(repeating: "0", count: 299)),
        (5.0, "5.0"),
        (-0.0, "-0.0"),
        (1e-7, "1e-07"),
        (0.1, "0.1"),
    ])
    func wholeNumbersHaveNoExponent(_ number: Double, _ text: String) throws {
        #expect(JSONValue.real(number).compactAnswerText == text)
        #expect(JSONValue.array([.real(number)]).indentedAnswerBytes == Array("[\n  \(text)\n]\n".utf8))
        // Read back: the same double (jansson reads integers past 64 bits as errors, so compare as a Double).
        #expect(Double(text) == number)
        // The text of a tree's own files reads back as the same double, exponent and all.
        let parser = JanssonParser()
        #expect(try parser.parse(Array(JSONValue.real(number).compactText.utf8)).get() == .real(number))
    }

    /// Whatever compactText writes, jansson reads back as the same value.
    @Test(arguments: [
        #"{"b": [1, 2.5, true, false, null], "a": {"nested": "y\n\"\\\u0001"}, "": ""}"#,
        #"["é", "😀", "\u2028", -0, 1e3]"#,
    ])
    func compactTextRoundTripsThroughJansson(_ source: String) throws {
        let parser = JanssonParser()
        let value = try parser.parse(Array(source.utf8)).get()
        #expect(try parser.parse(Array(value.compactText.utf8)).get() == value)
        #expect(!value.compactText.contains(" "))
    }

    @Test func indentedTextPutsOneMemberOrElementPerLineInTheirOrder() {
        let value = JSONValue.object([
            JSONMember(
                key: "z",
                value: .array([.integer(1), .object([JSONMember(key: "k", value: .string("v\n"))]), .array([])])),
            JSONMember(key: "a", value: .object([])),
            JSONMember(key: "b", value: .real(0.5)),
        ])
        #expect(
            value.indentedText == """
                {
                  "z": [
                    1,
                    {
                      "k": "v\\n"
                    },
                    []
                  ],
                  "a": {},
                  "b": 0.5
                }

                """)
        #expect(JSONValue.string("x").indentedText == "\"x\"\n")
    }

    @Test(arguments: [
        #"{"b": [1, 2.5, true, false, null], "a": {"nested": "y\n\"\\\u0001"}, "": ""}"#,
        #"["é", "😀", [[]], {"x": {}}, -0, 1e3, 1e-7]"#,
    ])
    func indentedTextRoundTripsThroughJansson(_ source: String) throws {
        let parser = JanssonParser()
        let value = try parser.parse(Array(source.utf8)).get()
        #expect(try parser.parse(Array(value.indentedText.utf8)).get() == value)
    }
}
