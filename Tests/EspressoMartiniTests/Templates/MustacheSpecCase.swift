import EspressoMartini
import EspressoMartiniJansson
import Testing

/// A case of the Mustache specification: the data is JSON text, parsed with jansson.
struct MustacheSpecCase: Sendable, CustomTestStringConvertible {
    let name: String
    let data: String
    let template: String
    let expected: String

    init(_ name: String, data: String, template: String, expected: String) {
        self.name = name
        self.data = data
        self.template = template
        self.expected = expected
    }

    var testDescription: String { name }

    func check() throws {
        let context = try JanssonParser().parse(Array(data.utf8)).get()
        let compiled = try MustacheTemplate(parsing: template)
        #expect(compiled.renderedText(context, escaping: .html) == expected, "\(name)")
    }
}
