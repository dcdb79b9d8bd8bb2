import EspressoMartini
import Testing

/// The Mustache specification's `interpolation` module (github.com/mustache/spec, `specs/interpolation.yml`), case by
/// case: name, data (as JSON text), template, expected output, rendered with HTML escaping as the
/// specification expects.
/// No case is skipped: the module has no lambda and no partial.
@Suite struct MustacheSpecInterpolationTests {
    static let cases: [MustacheSpecCase] = [
        MustacheSpecCase(
            "No Interpolation",
            data: "{}",
            template: "Hello from {Mustache}!\n",
            expected: "Hello from {Mustache}!\n"
        ),
        MustacheSpecCase(
            "Basic Interpolation",
            data: #"{"subject": "world"}"#,
            template: "Hello, {{subject}}!\n",
            expected: "Hello, world!\n"
        ),
        MustacheSpecCase(
            "No Re-interpolation",
            data: #"{"template": "{{planet}}", "planet": "Earth"}"#,
            template: "{{template}}: {{planet}}",
            expected: "{{planet}}: Earth"
        ),
        MustacheSpecCase(
            "HTML Escaping",
            data: #"{"forbidden": "& \" < >"}"#,
            template: "These characters should be HTML escaped: {{forbidden}}\n",
            expected: "These characters should be HTML escaped: &amp; &quot; &lt; &gt;\n"
        ),
        MustacheSpecCase(
            "Triple Mustache",
            data: #"{"forbidden": "& \" < >"}"#,
            template: "These characters should not be HTML escaped: {{{forbidden}}}\n",
            expected: "These characters should not be HTML escaped: & \" < >\n"
        ),
        MustacheSpecCase(
            "Ampersand",
            data: #"{"forbidden": "& \" < >"}"#,
            template: "These characters should not be HTML escaped: {{&forbidden}}\n",
            expected: "These characters should not be HTML escaped: & \" < >\n"
        ),
        MustacheSpecCase(
            "Basic Integer Interpolation",
            data: #"{"mph": 85}"#,
            template: #""{{mph}} miles an hour!""#,
            expected: #""85 miles an hour!""#
        ),
        MustacheSpecCase(
            "Triple Mustache Integer Interpolation",
            data: #"{"mph": 85}"#,
            template: #""{{{mph}}} miles an hour!""#,
            expected: #""85 miles an hour!""#
        ),
        MustacheSpecCase(
            "Ampersand Integer Interpolation",
            data: #"{"mph": 85}"#,
            template: #""{{&mph}} miles an hour!""#,
            expected: #""85 miles an hour!""#
        ),
        MustacheSpecCase(
            "Basic Decimal Interpolation",
            data: #"{"power": 1.21}"#,
            template: #""{{power}} jiggawatts!""#,
            expected: #""1.21 jiggawatts!""#
        ),
        MustacheSpecCase(
            "Triple Mustache Decimal Interpolation",
            data: #"{"power": 1.21}"#,
            template: #""{{{power}}} jiggawatts!""#,
            expected: #""1.21 jiggawatts!""#
        ),
        MustacheSpecCase(
            "Ampersand Decimal Interpolation",
            data: #"{"power": 1.21}"#,
            template: #""{{&power}} jiggawatts!""#,
            expected: #""1.21 jiggawatts!""#
        ),
        MustacheSpecCase(
            "Basic Null Interpolation",
            data: #"{"cannot": null}"#,
            template: "I ({{cannot}}) be seen!",
            expected: "I () be seen!"
        ),
        MustacheSpecCase(
            "Triple Mustache Null Interpolation",
            data: #"{"cannot": null}"#,
            template: "I ({{{cannot}}}) be seen!",
            expected: "I () be seen!"
        ),
        MustacheSpecCase(
            "Ampersand Null Interpolation",
            data: #"{"cannot": null}"#,
            template: "I ({{&cannot}}) be seen!",
            expected: "I () be seen!"
        ),
        MustacheSpecCase(
            "Basic Context Miss Interpolation",
            data: "{}",
            template: "I ({{cannot}}) be seen!",
            expected: "I () be seen!"
        ),
        MustacheSpecCase(
            "Triple Mustache Context Miss Interpolation",
            data: "{}",
            template: "I ({{{cannot}}}) be seen!",
            expected: "I () be seen!"
        ),
        MustacheSpecCase(
            "Ampersand Context Miss Interpolation",
            data: "{}",
            template: "I ({{&cannot}}) be seen!",
            expected: "I () be seen!"
        ),
        MustacheSpecCase(
            "Dotted Names - Basic Interpolation",
            data: #"{"person": {"name": "Joe"}}"#,
            template: #""{{person.name}}" == "{{#person}}{{name}}{{/person}}""#,
            expected: #""Joe" == "Joe""#
        ),
        MustacheSpecCase(
            "Dotted Names - Triple Mustache Interpolation",
            data: #"{"person": {"name": "Joe"}}"#,
            template: #""{{{person.name}}}" == "{{#person}}{{{name}}}{{/person}}""#,
            expected: #""Joe" == "Joe""#
        ),
        MustacheSpecCase(
            "Dotted Names - Ampersand Interpolation",
            data: #"{"person": {"name": "Joe"}}"#,
            template: #""{{&person.name}}" == "{{#person}}{{&name}}{{/person}}""#,
            expected: #""Joe" == "Joe""#
        ),
        MustacheSpecCase(
            "Dotted Names - Arbitrary Depth",
            data: #"{"a": {"b": {"c": {"d": {"e": {"name": "Phil"}}}}}}"#,
            template: #""{{a.b.c.d.e.name}}" == "Phil""#,
            expected: #""Phil" == "Phil""#
        ),
        MustacheSpecCase(
            "Dotted Names - Broken Chains",
            data: #"{"a": {}}"#,
            template: #""{{a.b.c}}" == """#,
            expected: #""" == """#
        ),
        MustacheSpecCase(
            "Dotted Names - Broken Chain Resolution",
            data: #"{"a": {"b": {}}, "c": {"name": "Jim"}}"#,
            template: #""{{a.b.c.name}}" == """#,
            expected: #""" == """#
        ),
        MustacheSpecCase(
            "Dotted Names - Initial Resolution",
            data: #"{"a": {"b": {"c": {"d": {"e": {"name": "Phil"}}}}}, "b": {"c": {"d": {"e": {"name": "Wrong"}}}}}"#,
            template: #""{{#a}}{{b.c.d.e.name}}{{/a}}" == "Phil""#,
            expected: #""Phil" == "Phil""#
        ),
        MustacheSpecCase(
            "Dotted Names - Context Precedence",
            data: #"{"a": {"b": {}}, "b": {"c": "ERROR"}}"#,
            template: "{{#a}}{{b.c}}{{/a}}",
            expected: ""
        ),
        MustacheSpecCase(
            "Dotted Names are never single keys",
            data: #"{"a.b": "c"}"#,
            template: "{{a.b}}",
            expected: ""
        ),
        MustacheSpecCase(
            "Dotted Names - No Masking",
            data: #"{"a.b": "c", "a": {"b": "d"}}"#,
            template: "{{a.b}}",
            expected: "d"
        ),
        MustacheSpecCase(
            "Implicit Iterators - Basic Interpolation",
            data: #""world""#,
            template: "Hello, {{.}}!\n",
            expected: "Hello, world!\n"
        ),
        MustacheSpecCase(
            "Implicit Iterators - HTML Escaping",
            data: #""& \" < >""#,
            template: "These characters should be HTML escaped: {{.}}\n",
            expected: "These characters should be HTML escaped: &amp; &quot; &lt; &gt;\n"
        ),
        MustacheSpecCase(
            "Implicit Iterators - Triple Mustache",
            data: #""& \" < >""#,
            template: "These characters should not be HTML escaped: {{{.}}}\n",
            expected: "These characters should not be HTML escaped: & \" < >\n"
        ),
        MustacheSpecCase(
            "Implicit Iterators - Ampersand",
            data: #""& \" < >""#,
            template: "These characters should not be HTML escaped: {{&.}}\n",
            expected: "These characters should not be HTML escaped: & \" < >\n"
        ),
        MustacheSpecCase(
            "Implicit Iterators - Basic Integer Interpolation",
            data: "85",
            template: #""{{.}} miles an hour!""#,
            expected: #""85 miles an hour!""#
        ),
        MustacheSpecCase(
            "Interpolation - Surrounding Whitespace",
            data: #"{"string": "---"}"#,
            template: "| {{string}} |",
            expected: "| --- |"
        ),
        MustacheSpecCase(
            "Triple Mustache - Surrounding Whitespace",
            data: #"{"string": "---"}"#,
            template: "| {{{string}}} |",
            expected: "| --- |"
        ),
        MustacheSpecCase(
            "Ampersand - Surrounding Whitespace",
            data: #"{"string": "---"}"#,
            template: "| {{&string}} |",
            expected: "| --- |"
        ),
        MustacheSpecCase(
            "Interpolation - Standalone",
            data: #"{"string": "---"}"#,
            template: "  {{string}}\n",
            expected: "  ---\n"
        ),
        MustacheSpecCase(
            "Triple Mustache - Standalone",
            data: #"{"string": "---"}"#,
            template: "  {{{string}}}\n",
            expected: "  ---\n"
        ),
        MustacheSpecCase(
            "Ampersand - Standalone",
            data: #"{"string": "---"}"#,
            template: "  {{&string}}\n",
            expected: "  ---\n"
        ),
        MustacheSpecCase(
            "Interpolation With Padding",
            data: #"{"string": "---"}"#,
            template: "|{{ string }}|",
            expected: "|---|"
        ),
        MustacheSpecCase(
            "Triple Mustache With Padding",
            data: #"{"string": "---"}"#,
            template: "|{{{ string }}}|",
            expected: "|---|"
        ),
        MustacheSpecCase(
            "Ampersand With Padding",
            data: #"{"string": "---"}"#,
            template: "|{{& string }}|",
            expected: "|---|"
        ),
    ]

    @Test(arguments: cases)
    func rendersAsTheSpecificationSays(_ specCase: MustacheSpecCase) throws {
        try specCase.check()
    }
}
