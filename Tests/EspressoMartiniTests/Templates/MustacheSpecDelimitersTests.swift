import EspressoMartini
import Testing

/// The Mustache specification's `delimiters` module (github.com/mustache/spec, `specs/delimiters.yml`), case by
/// case: name, data (as JSON text), template, expected output, rendered with HTML escaping as the
/// specification expects.
/// Skipped, because partials are not supported (they are refused when parsing): "Partial Inheritence", "Post-Partial Behavior".
@Suite struct MustacheSpecDelimitersTests {
    static let cases: [MustacheSpecCase] = [
        MustacheSpecCase(
            "Pair Behavior",
            data: #"{"text": "Hey!"}"#,
            template: "{{=<% %>=}}(<%text%>)",
            expected: "(Hey!)"
        ),
        MustacheSpecCase(
            "Special Characters",
            data: #"{"text": "It worked!"}"#,
            template: "({{=[ ]=}}[text])",
            expected: "(It worked!)"
        ),
        MustacheSpecCase(
            "Sections",
            data: #"{"section": true, "data": "I got interpolated."}"#,
            template:
                "[\n{{#section}}\n  {{data}}\n  |data|\n{{/section}}\n\n{{= | | =}}\n|#section|\n  {{data}}\n  |data|\n|/section|\n]\n",
            expected: "[\n  I got interpolated.\n  |data|\n\n  {{data}}\n  I got interpolated.\n]\n"
        ),
        MustacheSpecCase(
            "Inverted Sections",
            data: #"{"section": false, "data": "I got interpolated."}"#,
            template:
                "[\n{{^section}}\n  {{data}}\n  |data|\n{{/section}}\n\n{{= | | =}}\n|^section|\n  {{data}}\n  |data|\n|/section|\n]\n",
            expected: "[\n  I got interpolated.\n  |data|\n\n  {{data}}\n  I got interpolated.\n]\n"
        ),
        MustacheSpecCase(
            "Surrounding Whitespace",
            data: "{}",
            template: "| {{=@ @=}} |",
            expected: "|  |"
        ),
        MustacheSpecCase(
            "Outlying Whitespace (Inline)",
            data: "{}",
            template: " | {{=@ @=}}\n",
            expected: " | \n"
        ),
        MustacheSpecCase(
            "Standalone Tag",
            data: "{}",
            template: "Begin.\n{{=@ @=}}\nEnd.\n",
            expected: "Begin.\nEnd.\n"
        ),
        MustacheSpecCase(
            "Indented Standalone Tag",
            data: "{}",
            template: "Begin.\n  {{=@ @=}}\nEnd.\n",
            expected: "Begin.\nEnd.\n"
        ),
        MustacheSpecCase(
            "Standalone Line Endings",
            data: "{}",
            template: "|\r\n{{= @ @ =}}\r\n|",
            expected: "|\r\n|"
        ),
        MustacheSpecCase(
            "Standalone Without Previous Line",
            data: "{}",
            template: "  {{=@ @=}}\n=",
            expected: "="
        ),
        MustacheSpecCase(
            "Standalone Without Newline",
            data: "{}",
            template: "=\n  {{=@ @=}}",
            expected: "=\n"
        ),
        MustacheSpecCase(
            "Pair with Padding",
            data: "{}",
            template: "|{{= @   @ =}}|",
            expected: "||"
        ),
    ]

    @Test(arguments: cases)
    func rendersAsTheSpecificationSays(_ specCase: MustacheSpecCase) throws {
        try specCase.check()
    }
}
