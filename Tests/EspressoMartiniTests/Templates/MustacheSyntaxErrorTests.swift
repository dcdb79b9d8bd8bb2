import EspressoMartini
import Testing

@Suite struct MustacheSyntaxErrorTests {
    @Test(arguments: [
        ("Hello {{name", 1, 7, "this tag is never closed: end it with `}}`"),
        ("a\nb {{{raw}}", 2, 3, "this tag is never closed: end it with `}}}`"),
        ("{{a b {{c}}", 1, 1, "this tag is never closed: end it with `}}` before the next tag"),
        ("{{#a}}{{{b}} {{{c}}}{{/a}}", 1, 7, "this tag is never closed: end it with `}}` before the next tag"),
        ("é{{=<% %>=}}\n<%x", 2, 1, "this tag is never closed: end it with `%>`"),
        ("{{#items}}\n  {{name}}\n", 1, 1, "section `items` is never closed: add `{{/items}}` after its content"),
        (
            "{{#a}}{{#b}}{{/a}}", 1, 13,
            "`{{/a}}` does not close the open section `b` (line 1, column 7): close it first with `{{/b}}`"
        ),
        ("x\n  {{/a}}", 2, 3, "`{{/a}}` closes no open section: remove it, or open the section before with `{{#a}}`"),
        (
            "{{=<%>=}}", 1, 1,
            "a delimiter change is written `{{=OPEN CLOSE=}}` with two delimiters that have no spaces or `=` in them, such as `{{=<% %>=}}`; this one is `{{=<%>=}}`"
        ),
        (
            "{{=< = >=}}", 1, 1,
            "a delimiter change is written `{{=OPEN CLOSE=}}` with two delimiters that have no spaces or `=` in them, such as `{{=<% %>=}}`; this one is `{{=< = >=}}`"
        ),
        ("ab{{ }}", 1, 3, "this tag has no name: write one between the delimiters, such as `{{request.path}}`"),
        ("{{#}}{{/}}", 1, 1, "this tag has no name: write one between the delimiters, such as `{{request.path}}`"),
        ("{{&}}", 1, 1, "this tag has no name: write one between the delimiters, such as `{{request.path}}`"),
        (
            "{{a b}}", 1, 1,
            "`a b` is not a name: a name has no spaces and no empty part between dots, such as `request.pathParameters.id`, or is `.` alone"
        ),
        (
            "{{request..path}}", 1, 1,
            "`request..path` is not a name: a name has no spaces and no empty part between dots, such as `request.pathParameters.id`, or is `.` alone"
        ),
        (
            "{{a.}}", 1, 1,
            "`a.` is not a name: a name has no spaces and no empty part between dots, such as `request.pathParameters.id`, or is `.` alone"
        ),
        ("\n\n  {{> header}}", 3, 3, "partials (`{{> name}}`) are not supported: write the text into this template"),
        (
            "{{=[ ]=}}[< base]", 1, 10,
            "template inheritance (`[< name]` and `[$ name]`) is not supported: write the text into this template"
        ),
        (
            "{{$block}}", 1, 1,
            "template inheritance (`{{< name}}` and `{{$ name}}`) is not supported: write the text into this template"
        ),
    ])
    func reportsWhereAndWhatToDo(_ template: String, _ line: Int, _ column: Int, _ message: String) {
        #expect(throws: MustacheSyntaxError(position: SourcePosition(line: line, column: column), message: message)) {
            try MustacheTemplate(parsing: template)
        }
    }

    @Test(arguments: [
        ("{{x", SourcePosition(line: 1, column: 1), SourcePosition(line: 1, column: 1)),
        ("ab {{x", SourcePosition(line: 1, column: 1), SourcePosition(line: 1, column: 4)),
        ("ab {{x", SourcePosition(line: 12, column: 30), SourcePosition(line: 12, column: 33)),
        ("a\nb\n  {{x", SourcePosition(line: 12, column: 30), SourcePosition(line: 14, column: 3)),
        ("☕é {{x", SourcePosition(line: 3, column: 9), SourcePosition(line: 3, column: 12)),
    ])
    func positionsCountFromTheOrigin(_ template: String, _ origin: SourcePosition, _ expected: SourcePosition) {
        do {
            _ = try MustacheTemplate(parsing: template, origin: origin)
            Issue.record("`\(template)` parsed")
        } catch {
            #expect(error.position == expected)
        }
    }

    @Test(arguments: [
        "{{a}}", "{{#a}}{{/a}}", "{{^a.b}}x{{/ a.b }}", "{{! {{# not a section }}", "{{=| |=}}|x|", "{{.}}",
        "{{ a.b.c }}", "{{#.}}{{/.}}", "}} {{{x}}}",
    ])
    func acceptsWellFormedTemplates(_ template: String) throws {
        _ = try MustacheTemplate(parsing: template)
    }
}
