import EspressoMartini
import Testing

/// The Mustache specification's `sections` module (github.com/mustache/spec, `specs/sections.yml`), case by
/// case: name, data (as JSON text), template, expected output, rendered with HTML escaping as the
/// specification expects.
/// No case is skipped: the module has no lambda and no partial.
@Suite struct MustacheSpecSectionsTests {
    static let cases: [MustacheSpecCase] = [
        MustacheSpecCase(
            "Truthy",
            data: #"{"boolean": true}"#,
            template: #""{{#boolean}}This should be rendered.{{/boolean}}""#,
            expected: #""This should be rendered.""#
        ),
        MustacheSpecCase(
            "Falsey",
            data: #"{"boolean": false}"#,
            template: #""{{#boolean}}This should not be rendered.{{/boolean}}""#,
            expected: #""""#
        ),
        MustacheSpecCase(
            "Null is falsey",
            data: #"{"null": null}"#,
            template: #""{{#null}}This should not be rendered.{{/null}}""#,
            expected: #""""#
        ),
        MustacheSpecCase(
            "Context",
            data: #"{"context": {"name": "Joe"}}"#,
            template: #""{{#context}}Hi {{name}}.{{/context}}""#,
            expected: #""Hi Joe.""#
        ),
        MustacheSpecCase(
            "Parent contexts",
            data: #"{"a": "foo", "b": "wrong", "sec": {"b": "bar"}, "c": {"d": "baz"}}"#,
            template: #""{{#sec}}{{a}}, {{b}}, {{c.d}}{{/sec}}""#,
            expected: #""foo, bar, baz""#
        ),
        MustacheSpecCase(
            "Variable test",
            data: #"{"foo": "bar"}"#,
            template: #""{{#foo}}{{.}} is {{foo}}{{/foo}}""#,
            expected: #""bar is bar""#
        ),
        MustacheSpecCase(
            "List Contexts",
            data:
                #"{"tops": [{"tname": {"upper": "A", "lower": "a"}, "middles": [{"mname": "1", "bottoms": [{"bname": "x"}, {"bname": "y"}]}]}]}"#,
            template:
                "{{#tops}}{{#middles}}{{tname.lower}}{{mname}}.{{#bottoms}}{{tname.upper}}{{mname}}{{bname}}.{{/bottoms}}{{/middles}}{{/tops}}",
            expected: "a1.A1x.A1y."
        ),
        MustacheSpecCase(
            "Deeply Nested Contexts",
            data: #"{"a": {"one": 1}, "b": {"two": 2}, "c": {"three": 3, "d": {"four": 4, "five": 5}}}"#,
            template:
                "{{#a}}\n{{one}}\n{{#b}}\n{{one}}{{two}}{{one}}\n{{#c}}\n{{one}}{{two}}{{three}}{{two}}{{one}}\n{{#d}}\n{{one}}{{two}}{{three}}{{four}}{{three}}{{two}}{{one}}\n{{#five}}\n{{one}}{{two}}{{three}}{{four}}{{five}}{{four}}{{three}}{{two}}{{one}}\n{{one}}{{two}}{{three}}{{four}}{{.}}6{{.}}{{four}}{{three}}{{two}}{{one}}\n{{one}}{{two}}{{three}}{{four}}{{five}}{{four}}{{three}}{{two}}{{one}}\n{{/five}}\n{{one}}{{two}}{{three}}{{four}}{{three}}{{two}}{{one}}\n{{/d}}\n{{one}}{{two}}{{three}}{{two}}{{one}}\n{{/c}}\n{{one}}{{two}}{{one}}\n{{/b}}\n{{one}}\n{{/a}}\n",
            expected: "1\n121\n12321\n1234321\n123454321\n12345654321\n123454321\n1234321\n12321\n121\n1\n"
        ),
        MustacheSpecCase(
            "List",
            data: #"{"list": [{"item": 1}, {"item": 2}, {"item": 3}]}"#,
            template: #""{{#list}}{{item}}{{/list}}""#,
            expected: #""123""#
        ),
        MustacheSpecCase(
            "Empty List",
            data: #"{"list": []}"#,
            template: #""{{#list}}Yay lists!{{/list}}""#,
            expected: #""""#
        ),
        MustacheSpecCase(
            "Doubled",
            data: #"{"bool": true, "two": "second"}"#,
            template: "{{#bool}}\n* first\n{{/bool}}\n* {{two}}\n{{#bool}}\n* third\n{{/bool}}\n",
            expected: "* first\n* second\n* third\n"
        ),
        MustacheSpecCase(
            "Nested (Truthy)",
            data: #"{"bool": true}"#,
            template: "| A {{#bool}}B {{#bool}}C{{/bool}} D{{/bool}} E |",
            expected: "| A B C D E |"
        ),
        MustacheSpecCase(
            "Nested (Falsey)",
            data: #"{"bool": false}"#,
            template: "| A {{#bool}}B {{#bool}}C{{/bool}} D{{/bool}} E |",
            expected: "| A  E |"
        ),
        MustacheSpecCase(
            "Context Misses",
            data: "{}",
            template: "[{{#missing}}Found key 'missing'!{{/missing}}]",
            expected: "[]"
        ),
        MustacheSpecCase(
            "Implicit Iterator - String",
            data: #"{"list": ["a", "b", "c", "d", "e"]}"#,
            template: #""{{#list}}({{.}}){{/list}}""#,
            expected: #""(a)(b)(c)(d)(e)""#
        ),
        MustacheSpecCase(
            "Implicit Iterator - Integer",
            data: #"{"list": [1, 2, 3, 4, 5]}"#,
            template: #""{{#list}}({{.}}){{/list}}""#,
            expected: #""(1)(2)(3)(4)(5)""#
        ),
        MustacheSpecCase(
            "Implicit Iterator - Decimal",
            data: #"{"list": [1.1, 2.2, 3.3, 4.4, 5.5]}"#,
            template: #""{{#list}}({{.}}){{/list}}""#,
            expected: #""(1.1)(2.2)(3.3)(4.4)(5.5)""#
        ),
        MustacheSpecCase(
            "Implicit Iterator - Array",
            data: #"{"list": [[1, 2, 3], ["a", "b", "c"]]}"#,
            template: #""{{#list}}({{#.}}{{.}}{{/.}}){{/list}}""#,
            expected: #""(123)(abc)""#
        ),
        MustacheSpecCase(
            "Implicit Iterator - HTML Escaping",
            data: #"{"list": ["&", "\"", "<", ">"]}"#,
            template: #""{{#list}}({{.}}){{/list}}""#,
            expected: #""(&amp;)(&quot;)(&lt;)(&gt;)""#
        ),
        MustacheSpecCase(
            "Implicit Iterator - Triple mustache",
            data: #"{"list": ["&", "\"", "<", ">"]}"#,
            template: #""{{#list}}({{{.}}}){{/list}}""#,
            expected: #""(&)(")(<)(>)""#
        ),
        MustacheSpecCase(
            "Implicit Iterator - Ampersand",
            data: #"{"list": ["&", "\"", "<", ">"]}"#,
            template: #""{{#list}}({{&.}}){{/list}}""#,
            expected: #""(&)(")(<)(>)""#
        ),
        MustacheSpecCase(
            "Implicit Iterator - Root-level",
            data: #"[{"value": "a"}, {"value": "b"}]"#,
            template: #""{{#.}}({{value}}){{/.}}""#,
            expected: #""(a)(b)""#
        ),
        MustacheSpecCase(
            "Dotted Names - Truthy",
            data: #"{"a": {"b": {"c": true}}}"#,
            template: #""{{#a.b.c}}Here{{/a.b.c}}" == "Here""#,
            expected: #""Here" == "Here""#
        ),
        MustacheSpecCase(
            "Dotted Names - Falsey",
            data: #"{"a": {"b": {"c": false}}}"#,
            template: #""{{#a.b.c}}Here{{/a.b.c}}" == """#,
            expected: #""" == """#
        ),
        MustacheSpecCase(
            "Dotted Names - Broken Chains",
            data: #"{"a": {}}"#,
            template: #""{{#a.b.c}}Here{{/a.b.c}}" == """#,
            expected: #""" == """#
        ),
        MustacheSpecCase(
            "Surrounding Whitespace",
            data: #"{"boolean": true}"#,
            template: " | {{#boolean}}\t|\t{{/boolean}} | \n",
            expected: " | \t|\t | \n"
        ),
        MustacheSpecCase(
            "Internal Whitespace",
            data: #"{"boolean": true}"#,
            template: " | {{#boolean}} {{! Important Whitespace }}\n {{/boolean}} | \n",
            expected: " |  \n  | \n"
        ),
        MustacheSpecCase(
            "Indented Inline Sections",
            data: #"{"boolean": true}"#,
            template: " {{#boolean}}YES{{/boolean}}\n {{#boolean}}GOOD{{/boolean}}\n",
            expected: " YES\n GOOD\n"
        ),
        MustacheSpecCase(
            "Standalone Lines",
            data: #"{"boolean": true}"#,
            template: "| This Is\n{{#boolean}}\n|\n{{/boolean}}\n| A Line\n",
            expected: "| This Is\n|\n| A Line\n"
        ),
        MustacheSpecCase(
            "Indented Standalone Lines",
            data: #"{"boolean": true}"#,
            template: "| This Is\n  {{#boolean}}\n|\n  {{/boolean}}\n| A Line\n",
            expected: "| This Is\n|\n| A Line\n"
        ),
        MustacheSpecCase(
            "Standalone Line Endings",
            data: #"{"boolean": true}"#,
            template: "|\r\n{{#boolean}}\r\n{{/boolean}}\r\n|",
            expected: "|\r\n|"
        ),
        MustacheSpecCase(
            "Standalone Without Previous Line",
            data: #"{"boolean": true}"#,
            template: "  {{#boolean}}\n#{{/boolean}}\n/",
            expected: "#\n/"
        ),
        MustacheSpecCase(
            "Standalone Without Newline",
            data: #"{"boolean": true}"#,
            template: "#{{#boolean}}\n/\n  {{/boolean}}",
            expected: "#\n/\n"
        ),
        MustacheSpecCase(
            "Padding",
            data: #"{"boolean": true}"#,
            template: "|{{# boolean }}={{/ boolean }}|",
            expected: "|=|"
        ),
    ]

    @Test(arguments: cases)
    func rendersAsTheSpecificationSays(_ specCase: MustacheSpecCase) throws {
        try specCase.check()
    }
}
