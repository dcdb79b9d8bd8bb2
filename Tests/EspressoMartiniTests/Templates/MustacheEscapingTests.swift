import EspressoMartini
import EspressoMartiniJansson
import Testing

@Suite struct MustacheEscapingTests {
    static func render(_ template: String, _ value: JSONValue, _ escaping: MustacheEscaping) throws -> String {
        try MustacheTemplate(parsing: template).renderedText(
            JSONValue.object([JSONMember(key: "x", value: value)]), escaping: escaping)
    }

    @Test(arguments: [
        (#"say "hi""#, #"say \"hi\""#, "say &quot;hi&quot;"),
        (#"C:\dir\"#, #"C:\\dir\\"#, #"C:\dir\"#),
        ("a\nb\rc\td", #"a\nb\rc\td"#, "a\nb\rc\td"),
        ("\u{8}\u{C}", #"\b\f"#, "\u{8}\u{C}"),
        ("\u{0}\u{1}\u{1F}\u{7F}", #"\u0000\u0001\u001f"# + "\u{7F}", "\u{0}\u{1}\u{1F}\u{7F}"),
        ("<a href='x'>&</a>", "<a href='x'>&</a>", "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"),
        ("café ☕ \u{2028}", "café ☕ \u{2028}", "café ☕ \u{2028}"),
        ("", "", ""),
    ])
    func escapesStrings(_ value: String, _ json: String, _ html: String) throws {
        #expect(try Self.render("{{x}}", .string(value), .json) == json)
        #expect(try Self.render("{{x}}", .string(value), .html) == html)
        #expect(try Self.render("{{x}}", .string(value), .none) == value)
        for escaping in [MustacheEscaping.json, .html, .none] {
            #expect(try Self.render("{{{x}}}", .string(value), escaping) == value)
            #expect(try Self.render("{{& x}}", .string(value), escaping) == value)
        }
    }

    @Test(arguments: [
        (JSONValue.integer(0), "0"),
        (.integer(-42), "-42"),
        (.integer(Int64.max), "9223372036854775807"),
        (.integer(Int64.min), "-9223372036854775808"),
        (.real(1.5), "1.5"),
        (.real(-0.25), "-0.25"),
        (.real(1e300), "1e+300"),
        (.bool(true), "true"),
        (.bool(false), "false"),
        (.null, ""),
        (.array([.integer(1), .string("a")]), #"[1,"a"]"#),
        (.object([JSONMember(key: "k", value: .array([]))]), #"{"k":[]}"#),
    ])
    func writesOtherValuesAsJSONDoes(_ value: JSONValue, _ text: String) throws {
        #expect(try Self.render("{{{x}}}", value, .json) == text)
        #expect(try Self.render("{{x}}", value, .none) == text)
    }

    @Test func objectsAndArraysAreEscapedLikeStrings() throws {
        let value = JSONValue.object([JSONMember(key: "q", value: .string("<\"\\>"))])
        #expect(try Self.render("{{x}}", value, .json) == #"{\"q\":\"<\\\"\\\\>\"}"#)
        #expect(try Self.render("{{x}}", value, .html) == #"{&quot;q&quot;:&quot;&lt;\&quot;\\&gt;&quot;}"#)
        #expect(try Self.render("{{{x}}}", value, .json) == #"{"q":"<\"\\>"}"#)
    }

    /// Values a request could carry, each of which must stay inside the JSON string it is rendered into.
    /// Jansson refuses `\u0000` in strings, so NUL (written as `\u0000`, valid JSON) is checked above instead.
    static let hostileValues: [String] = [
        #"""#,
        #"\"#,
        #"\""#,
        #"", "injected": true, "x": ""#,
        "\"}\n{\"a\":1",
        String(decoding: (1...0x1F).map { UInt8($0) }, as: UTF8.self),
        String(decoding: [0xFF, 0xFE, 0x22, 0xC3, 0x28, 0x5C, 0xE2, 0x82, 0xED, 0xA0, 0x80], as: UTF8.self),
        "{{x}}</script><!--",
        "\u{2028}\u{2029}\u{FEFF}\u{10FFFF}",
        String(repeating: "\"\\\n\u{1}é☕ plain text ", count: 1 << 20 / 16),
    ]

    @Test(arguments: hostileValues.indices)
    func jsonEscapedValuesParseBackUnchanged(_ index: Int) throws {
        let value = Self.hostileValues[index]
        let template = try MustacheTemplate(parsing: #"{"a":"{{x}}","b":"{{x.y}}-{{#x}}{{.}}{{/x}}"}"#)
        var output: [UInt8] = []
        template.render(JSONValue.object([JSONMember(key: "x", value: .string(value))]), escaping: .json, into: &output)
        let parsed = try JanssonParser().parse(output).get()
        #expect(
            parsed
                == .object([
                    JSONMember(key: "a", value: .string(value)), JSONMember(key: "b", value: .string("-" + value)),
                ]))
    }

    @Test func invalidUTF8IsRepairedBeforeItReachesTheOutput() throws {
        let repaired = String(decoding: [0x61, 0xFF, 0x62], as: UTF8.self)
        #expect(try Self.render("{{x}}", .string(repaired), .json) == "a\u{FFFD}b")
    }

    @Test func renderingAppendsToWhatTheBufferHolds() throws {
        var output = Array("HTTP body: ".utf8)
        try MustacheTemplate(parsing: "{{x}}!").render(
            JSONValue.object([JSONMember(key: "x", value: .integer(7))]), escaping: .json, into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "HTTP body: 7!")
    }

    @Test(arguments: [
        ("application/json", MustacheEscaping.json),
        ("application/json; charset=utf-8", .json),
        ("Application/JSON", .json),
        ("application/problem+json", .json),
        ("application/vnd.api+json ; q=1", .json),
        ("text/html; charset=utf-8", .html),
        ("application/xml", .html),
        ("text/xml", .html),
        ("image/svg+xml", .html),
        ("application/xhtml+xml", .html),
        ("text/plain; charset=utf-8", .none),
        ("application/yaml", .none),
        ("application/jsonl", .none),
        ("", .none),
    ])
    func escapingFollowsTheContentType(_ contentType: String, _ escaping: MustacheEscaping) {
        #expect(MustacheEscaping(contentType: contentType) == escaping)
    }
}
