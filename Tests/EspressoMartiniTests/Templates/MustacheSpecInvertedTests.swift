import EspressoMartini
import Testing

/// The Mustache specification's `inverted` module (github.com/mustache/spec, `specs/inverted.yml`), case by
/// case: name, data (as JSON text), template, expected output, rendered with HTML escaping as the
/// specification expects.
/// No case is skipped: the module has no lambda and no partial.
@Suite struct MustacheSpecInvertedTests {
    static let cases: [MustacheSpecCase] = [
        MustacheSpecCase(
            "Falsey",
            data: #"{"boolean": false}"#,
            template: #""{{^boolean}}This should be rendered.{{/boolean}}""#,
            expected: #""This should be rendered.""#
        ),
        MustacheSpecCase(
            "Truthy",
            data: #"{"boolean": true}"#,
            template: #""{{^boolean}}This should not be rendered.{{/boolean}}""#,
            expected: #""""#
        ),
        MustacheSpecCase(
            "Null is falsey",
            data: #"{"null": null}"#,
            template: #""{{^null}}This should be rendered.{{/null}}""#,
            expected: #""This should be rendered.""#
        ),
        MustacheSpecCase(
            "Context",
            data: #"{"context": {"name": "Joe"}}"#,
            template: #""{{^context}}Hi {{name}}.{{/context}}""#,
            expected: #""""#
        ),
        MustacheSpecCase(
            "List",
            data: #"{"list": [{"n": 1}, {"n": 2}, {"n": 3}]}"#,
            template: #""{{^list}}{{n}}{{/list}}""#,
            expected: #""""#
        ),
        MustacheSpecCase(
            "Empty List",
            data: #"{"list": []}"#,
            template: #""{{^list}}Yay lists!{{/list}}""#,
            expected: #""Yay lists!""#
        ),
        MustacheSpecCase(
            "Doubled",
            data: #"{"bool": false, "two": "second"}"#,
            template: "{{^bool}}\n* first\n{{/bool}}\n* {{two}}\n{{^bool}}\n* third\n{{/bool}}\n",
            expected: "* first\n* second\n* third\n"
        ),
        MustacheSpecCase(
            "Nested (Falsey)",
            data: #"{"bool": false}"#,
            template: "| A {{^bool}}B {{^bool}}C{{/bool}} D{{/bool}} E |",
            expected: "| A B C D E |"
        ),
        MustacheSpecCase(
            "Nested (Truthy)",
            data: #"{"bool": true}"#,
            template: "| A {{^bool}}B {{^bool}}C{{/bool}} D{{/bool}} E |",
            expected: "| A  E |"
        ),
        MustacheSpecCase(
            "Context Misses",
            data: "{}",
            template: "[{{^missing}}Cannot find key 'missing'!{{/missing}}]",
            expected: "[Cannot find key 'missing'!]"
        ),
        MustacheSpecCase(
            "Dotted Names - Truthy",
            data: #"{"a": {"b": {"c": true}}}"#,
            template: #""{{^a.b.c}}Not Here{{/a.b.c}}" == """#,
            expected: #""" == """#
        ),
        MustacheSpecCase(
            "Dotted Names - Falsey",
            data: #"{"a": {"b": {"c": false}}}"#,
            template: #""{{^a.b.c}}Not Here{{/a.b.c}}" == "Not Here""#,
            expected: #""Not Here" == "Not Here""#
        ),
        MustacheSpecCase(
            "Dotted Names - Broken Chains",
            data: #"{"a": {}}"#,
            template: #""{{^a.b.c}}Not Here{{/a.b.c}}" == "Not Here""#,
            expected: #""Not Here" == "Not Here""#
        ),
        MustacheSpecCase(
            "Surrounding Whitespace",
            data: #"{"boolean": false}"#,
            template: " | {{^boolean}}\t|\t{{/boolean}} | \n",
            expected: " | \t|\t | \n"
        ),
        MustacheSpecCase(
            "Internal Whitespace",
            data: #"{"boolean": false}"#,
            template: " | {{^boolean}} {{! Important Whitespace }}\n {{/boolean}} | \n",
            expected: " |  \n  | \n"
        ),
        MustacheSpecCase(
            "Indented Inline Sections",
            data: #"{"boolean": false}"#,
            template: " {{^boolean}}NO{{/boolean}}\n {{^boolean}}WAY{{/boolean}}\n",
            expected: " NO\n WAY\n"
        ),
        MustacheSpecCase(
            "Standalone Lines",
            data: #"{"boolean": false}"#,
            template: "| This Is\n{{^boolean}}\n|\n{{/boolean}}\n| A Line\n",
            expected: "| This Is\n|\n| A Line\n"
        ),
        MustacheSpecCase(
            "Standalone Indented Lines",
            data: #"{"boolean": false}"#,
            template: "| This Is\n  {{^boolean}}\n|\n  {{/boolean}}\n| A Line\n",
            expected: "| This Is\n|\n| A Line\n"
        ),
        MustacheSpecCase(
            "Standalone Line Endings",
            data: #"{"boolean": false}"#,
            template: "|\r\n{{^boolean}}\r\n{{/boolean}}\r\n|",
            expected: "|\r\n|"
        ),
        MustacheSpecCase(
            "Standalone Without Previous Line",
            data: #"{"boolean": false}"#,
            template: "  {{^boolean}}\n^{{/boolean}}\n/",
            expected: "^\n/"
        ),
        MustacheSpecCase(
            "Standalone Without Newline",
            data: #"{"boolean": false}"#,
            template: "^{{^boolean}}\n/\n  {{/boolean}}",
            expected: "^\n/\n"
        ),
        MustacheSpecCase(
            "Padding",
            data: #"{"boolean": false}"#,
            template: "|{{^ boolean }}={{/ boolean }}|",
            expected: "|=|"
        ),
    ]

    @Test(arguments: cases)
    func rendersAsTheSpecificationSays(_ specCase: MustacheSpecCase) throws {
        try specCase.check()
    }
}
