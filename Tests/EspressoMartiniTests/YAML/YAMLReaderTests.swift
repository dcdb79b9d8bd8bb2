import EspressoMartini
import EspressoMartiniYAML
import Testing

/// YAML bodies as scripts see them (`request.bodyYAML`), read by libyaml.
@Suite struct YAMLReaderTests {
    @Test("YAML to JSON: collections, the core schema's scalars, quoted text, anchors", arguments: [
        ("name: Ada\nage: 36\nadmin: true\nnothing: ~\nratio: 1.5\nhex: 0x1F\n", #"{"name":"Ada","age":36,"admin":true,"nothing":null,"ratio":1.5,"hex":31}"#),
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

    @Test("not YAML, or too large once aliases are expanded: nil", arguments: [
        "a: [1, 2\n",
        "key: value\n  bad indentation: x\n",
        "",
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
    ])
    func rejects(_ yaml: String) {
        #expect(YAMLReader.parse(Array(yaml.utf8))?.kindName == nil)
    }
}
