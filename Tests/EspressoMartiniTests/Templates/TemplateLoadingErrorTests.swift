import EspressoMartini
import Testing

/// `"template"` on a response (doc/templates.md): a template that does not parse, or a `template` that is not a
/// boolean, is a load error pointing at the place in the file: the tag inside an inline string (escapes
/// counted as they are written), or the line and column in a `response_file`.
@Suite struct TemplateLoadingErrorTests {
    static let cases: [LoaderErrorCase] = [
        .init(
            "template is not a boolean", configuration: #"{"template": "yes", "body": "{{x}}"}"#,
            [
                "\(LoaderErrorCase.at):1:14: error: 'template' must be true or false, found a string"
            ]),
        .init(
            "an unclosed section in an inline string", configuration: #"{"template": true, "body": "id {{#a}} x"}"#,
            [
                "\(LoaderErrorCase.at):1:32: error: the template does not parse: section `a` is never closed: add `{{/a}}` after its content"
            ]),
        .init(
            "escapes before the tag are counted as written",
            configuration: #"{"template": true, "body": "\"q\" \u00e9 {{/a}}"}"#,
            [
                "\(LoaderErrorCase.at):1:42: error: the template does not parse: `{{/a}}` closes no open section: remove it, or open the section before with `{{#a}}`"
            ]),
        .init(
            "a line break in the text stays on the file's line",
            configuration: #"{"template": true, "body": "a\nb {{> part}}"}"#,
            [
                "\(LoaderErrorCase.at):1:34: error: the template does not parse: partials (`{{> name}}`) are not supported: write the text into this template"
            ]),
        .init(
            "a string deep in a JSON body",
            configuration: """
                {"template": true,
                 "body": {"order": {"items": ["ok {{x}}", "bad {{x"]}}}
                """,
            [
                "\(LoaderErrorCase.at):2:48: error: the template does not parse: this tag is never closed: end it with `}}`"
            ]),
        .init(
            "a header value, and one of a repeated header",
            configuration: """
                {"template": true, "headers": {"Location": "/a/{{#x}}", "Link": ["<{{a}}>", "<{{/b}}>"]}}
                """,
            [
                "\(LoaderErrorCase.at):1:48: error: the template does not parse: section `x` is never closed: add `{{/x}}` after its content",
                "\(LoaderErrorCase.at):1:79: error: the template does not parse: `{{/b}}` closes no open section: remove it, or open the section before with `{{#b}}`",
            ]),
        .init(
            "a response file, at its own line and column",
            configuration: #"{"template": true, "response_file": "page.html"}"#,
            files: [
                "exchanges/GET/page.html": "<p>\n  {{#items}}\n  {{name}\n"
            ],
            [
                "$TMP/exchanges/GET/page.html:3:3: error: the template does not parse: this tag is never closed: end it with `}}`"
            ]),
    ]

    @Test(arguments: cases) func reportsWhereTheTemplateBreaks(_ testCase: LoaderErrorCase) throws {
        try testCase.check()
    }

    /// Without `"template": true` the same text is plain, and a response file is not read.
    @Test(arguments: [
        #"{"body": "{{#a}}"}"#, #"{"template": false, "body": "{{#a}}"}"#, #"{"response_file": "page.html"}"#,
    ])
    func withoutTemplateTheTextIsPlain(_ json: String) throws {
        let fixture = FolderFixture(files: [LoaderErrorCase.configuration: json, "exchanges/GET/page.html": "{{#a}}"])
        let (tree, diagnostics, _) = try LoaderFixture.load(fixture)
        #expect(diagnostics.all.isEmpty)
        #expect(tree?.exchanges.first?.responses.first?.template == nil)
        #expect(tree?.exchanges.first?.readsBody == false)
    }

    /// A template with no body and no headers is fine; the exchange keeps request bodies.
    @Test func aTemplateWithNothingToRenderLoads() throws {
        let fixture = FolderFixture(files: [LoaderErrorCase.configuration: #"{"template": true, "status_code": 201}"#])
        let (tree, diagnostics, _) = try LoaderFixture.load(fixture)
        #expect(diagnostics.all.isEmpty)
        #expect(tree?.exchanges.first?.responses.first?.template == ResponseTemplate(body: .none, headers: []))
        #expect(tree?.exchanges.first?.readsBody == true)
    }
}
