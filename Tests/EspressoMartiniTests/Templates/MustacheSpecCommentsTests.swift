import EspressoMartini
import Testing

/// The Mustache specification's `comments` module (github.com/mustache/spec, `specs/comments.yml`), case by
/// case: name, data (as JSON text), template, expected output, rendered with HTML escaping as the
/// specification expects.
/// No case is skipped: the module has no lambda and no partial.
@Suite struct MustacheSpecCommentsTests {
    static let cases: [MustacheSpecCase] = [
        MustacheSpecCase(
            "Inline",
            data: "{}",
            template: "12345{{! Comment Block! }}67890",
            expected: "1234567890"
        ),
        MustacheSpecCase(
            "Multiline",
            data: "{}",
            template: "12345{{!\n  This is a\n  multi-line comment...\n}}67890\n",
            expected: "1234567890\n"
        ),
        MustacheSpecCase(
            "Standalone",
            data: "{}",
            template: "Begin.\n{{! Comment Block! }}\nEnd.\n",
            expected: "Begin.\nEnd.\n"
        ),
        MustacheSpecCase(
            "Indented Standalone",
            data: "{}",
            template: "Begin.\n  {{! Indented Comment Block! }}\nEnd.\n",
            expected: "Begin.\nEnd.\n"
        ),
        MustacheSpecCase(
            "Standalone Line Endings",
            data: "{}",
            template: "|\r\n{{! Standalone Comment }}\r\n|",
            expected: "|\r\n|"
        ),
        MustacheSpecCase(
            "Standalone Without Previous Line",
            data: "{}",
            template: "  {{! I'm Still Standalone }}\n!",
            expected: "!"
        ),
        MustacheSpecCase(
            "Standalone Without Newline",
            data: "{}",
            template: "!\n  {{! I'm Still Standalone }}",
            expected: "!\n"
        ),
        MustacheSpecCase(
            "Multiline Standalone",
            data: "{}",
            template: "Begin.\n{{!\nSomething's going on here...\n}}\nEnd.\n",
            expected: "Begin.\nEnd.\n"
        ),
        MustacheSpecCase(
            "Indented Multiline Standalone",
            data: "{}",
            template: "Begin.\n  {{!\n    Something's going on here...\n  }}\nEnd.\n",
            expected: "Begin.\nEnd.\n"
        ),
        MustacheSpecCase(
            "Indented Inline",
            data: "{}",
            template: "  12 {{! 34 }}\n",
            expected: "  12 \n"
        ),
        MustacheSpecCase(
            "Surrounding Whitespace",
            data: "{}",
            template: "12345 {{! Comment Block! }} 67890",
            expected: "12345  67890"
        ),
        MustacheSpecCase(
            "Variable Name Collision",
            data: #"{"! comment": 1, "! comment ": 2, "!comment": 3, "comment": 4}"#,
            template: "comments never show: >{{! comment }}<",
            expected: "comments never show: ><"
        ),
    ]

    @Test(arguments: cases)
    func rendersAsTheSpecificationSays(_ specCase: MustacheSpecCase) throws {
        try specCase.check()
    }
}
