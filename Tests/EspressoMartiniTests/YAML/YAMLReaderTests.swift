import EspressoMartini
import EspressoMartiniYAML
import Testing

/// YAML bodies as scripts see them (`request.bodyYAML`), read by libyaml.
@Suite struct YAMLReaderTests {
    @Test(
        "YAML to JSON: collections, the core schema's scalars, quoted text, anchors",
        arguments: [
            (
                "name: Ada\nage: 36\nadmin: true\nnothing: ~\nratio: 1.5\nhex: 0x1F\n",
                #"{"name":"Ada","age":36,"admin":true,"nothing":null,"ratio":1.5,"hex":31}"#
            ),
            ("- a\n- 'true'\n- \"1\"\n- [1, 2]\n- {k: v}\n", #"["a","true","1",[1,2],{"k":"v"}]"#),
            ("text: |\n  line one\n  line two\n", #"{"text":"line one\nline two\n"}"#),
            ("base: &b {x: 1}\ncopy: *b\n", #"{"base":{"x":1},"copy":{"x":1}}"#),
            ("1: one\ninf: .inf\n", #"{"1":"one","inf":".inf"}"#),
            ("just text", #""just text""#),
            ("---\nfirst: 1\n---\nsecond: 2\n", #"{"first":1}"#),
        ])
    func reads(_ yaml: String, _ json: String) {
        #expect(YAMLReader.parse(Array(yaml.utf8))?.compactText == json)
    }

    @Test(
        "not YAML, or too large once aliases are expanded: nil",
        arguments: [
            "a: [1, 2\n",
            "key: value\n  bad indentation: x\n",
            "",
            "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
        ])
    func rejects(_ yaml: String) {
        #expect(YAMLReader.parse(Array(yaml.utf8))?.kindName == nil)
    }
}

/// YAML read with positions for `import openapi`: where a text is not YAML, and its limits.
@Suite struct YAMLReaderPositionTests {
    func failure(_ yaml: String, valueLimit: Int = 1000) -> YAMLReader.Failure? {
        if case .failure(let failure) = YAMLReader.read(Array(yaml.utf8), valueLimit: valueLimit) { return failure }
        return nil
    }

    @Test(
        "libyaml's error, its line and column from 1",
        arguments: [
            ("a: [1, 2\n", 2, 1, "invalid YAML: did not find expected ',' or ']' (while parsing a flow sequence)"),
            ("key: value\n  bad: x\n", 2, 6, "invalid YAML: mapping values are not allowed in this context"),
            ("a: *nowhere\n", 1, 4, "invalid YAML: the alias *nowhere names no anchor before it"),
        ])
    func syntax(_ yaml: String, _ line: Int, _ column: Int, _ message: String) {
        #expect(
            failure(yaml)
                == .invalid(JSONSyntaxError(position: SourcePosition(line: line, column: column), message: message)))
    }

    @Test("the value limit counts aliases each time they repeat; nesting is bounded")
    func limits() {
        #expect(
            failure("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n", valueLimit: 10)
                == .invalid(
                    JSONSyntaxError(
                        position: SourcePosition(line: 2, column: 5),
                        message: "the YAML document holds more than 10 values once its aliases are expanded"
                    )))
        #expect(failure("a: &a [1, 2, 3]\nb: [*a, *a, *a]\n", valueLimit: 30) == nil)
        let deep = String(repeating: "[", count: 1001) + String(repeating: "]", count: 1001)
        #expect(
            failure(deep, valueLimit: 10_000)
                == .invalid(
                    JSONSyntaxError(
                        position: SourcePosition(line: 1, column: 1001),
                        message: "the YAML document nests collections more than 1000 deep"
                    )))
        #expect(YAMLReader.parse(Array(deep.utf8)) == nil)
    }

    @Test("an empty text, or comments only, is the document null")
    func empty() {
        #expect((try? YAMLReader.read([], valueLimit: 10).get()) == .null)
        #expect((try? YAMLReader.read(Array("# nothing\n".utf8), valueLimit: 10).get()) == .null)
    }
}
