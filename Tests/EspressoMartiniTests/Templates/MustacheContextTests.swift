import EspressoMartini
import Testing

/// A root that records what the renderer asks of it, answering from a JSON value.
private final class RecordingContext: MustacheContext {
    let values: JSONValue
    private(set) var askedPaths: [[String]] = []
    private(set) var rootValueAsked = false

    init(_ values: JSONValue) {
        self.values = values
    }

    func value(at path: [String]) -> JSONValue? {
        askedPaths.append(path)
        return values.descendant(at: path)
    }

    func rootValue() -> JSONValue {
        rootValueAsked = true
        return values
    }
}

@Suite struct MustacheContextTests {
    static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { JSONMember(key: $0.key, value: $0.value) })
    }

    static let root = object([
        "request": object([
            "pathParameters": object(["id": .string("42")]),
            "bodyJSON": object(["items": .array([object(["id": .integer(1)]), object(["id": .integer(2)])])]),
            "pathComponents": .array([.string("/"), .string("orders"), .string("42")]),
        ]),
        "uuid": .string("not computed"),
        "call": .integer(3),
    ])

    @Test(
        arguments: [
            ("/orders/{{request.pathParameters.id}}", "/orders/42", [["request", "pathParameters", "id"]]),
            (
                "{{#request.bodyJSON.items}}{{id}},{{/request.bodyJSON.items}}", "1,2,",
                [["request", "bodyJSON", "items"]]
            ),
            (
                "{{#request.bodyJSON.items}}{{call}}{{/request.bodyJSON.items}}", "33",
                [["request", "bodyJSON", "items"], ["call"], ["call"]]
            ),
            ("{{^call}}{{uuid}}{{/call}}", "", [["call"]]),
            ("{{#missing}}{{uuid}}{{/missing}}", "", [["missing"]]),
            ("{{! uuid, call }}plain", "plain", []),
            (
                "{{request.pathComponents.1}}/{{request.pathComponents.3}}", "orders/",
                [["request", "pathComponents", "1"], ["request", "pathComponents", "3"]]
            ),
        ] as [(String, String, [[String]])])
    func asksTheRootOnlyForTheNamesARenderReaches(_ template: String, _ expected: String, _ asked: [[String]]) throws {
        let context = RecordingContext(Self.root)
        #expect(try MustacheTemplate(parsing: template).renderedText(context, escaping: .json) == expected)
        #expect(context.askedPaths == asked)
        #expect(!context.rootValueAsked)
    }

    @Test func theImplicitIteratorAtTheRootAsksForTheWholeRoot() throws {
        let context = RecordingContext(.array([.string("a"), .string("b")]))
        #expect(try MustacheTemplate(parsing: "{{#.}}<{{.}}>{{/.}}").renderedText(context, escaping: .none) == "<a><b>")
        #expect(context.rootValueAsked)
        #expect(context.askedPaths.isEmpty)
    }

    /// Truthiness as `!!value` in JavaScript, the specification's example.
    @Test(arguments: [
        (JSONValue.bool(true), true),
        (.bool(false), false),
        (.null, false),
        (.integer(0), false),
        (.integer(-1), true),
        (.real(0), false),
        (.real(.nan), false),
        (.real(0.5), true),
        (.string(""), false),
        (.string("0"), true),
        (.string("false"), true),
        (.array([]), false),
        (.array([.bool(false)]), true),
        (.object([]), true),
    ])
    func sectionsRenderForTruthyValues(_ value: JSONValue, _ truthy: Bool) throws {
        let template = try MustacheTemplate(parsing: "{{#x}}yes{{/x}}{{^x}}no{{/x}}")
        let rendered = template.renderedText(Self.object(["x": value]), escaping: .none)
        #expect(rendered == (truthy ? "yes" : "no"))
    }

    @Test(arguments: [
        ("{{list.0}}", "a"),
        ("{{list.2.k}}", "v"),
        ("{{list.3}}", ""),
        ("{{list.-1}}", ""),
        ("{{list.+1}}", ""),
        ("{{list.x}}", ""),
        ("{{text.0}}", ""),
    ])
    func dottedNamesIndexArrays(_ template: String, _ expected: String) throws {
        let data = Self.object([
            "list": .array([.string("a"), .string("b"), Self.object(["k": .string("v")])]), "text": .string("abc"),
        ])
        #expect(try MustacheTemplate(parsing: template).renderedText(data, escaping: .none) == expected)
    }

    @Test(arguments: [
        ("just text", true),
        ("{{! a comment }}text{{=<% %>=}}", true),
        ("", true),
        ("{{x}}", false),
        ("{{#x}}{{/x}}", false),
    ])
    func plainTextIsRecognised(_ template: String, _ isPlain: Bool) throws {
        #expect(try MustacheTemplate(parsing: template).isPlainText == isPlain)
    }

    @Test func textThatIsNotUTF8IsKeptByteForByte() throws {
        let bytes: [UInt8] = [0xFF, 0x7B, 0x7B, 0x78, 0x7D, 0x7D, 0xC3]
        var output: [UInt8] = []
        try MustacheTemplate(parsing: bytes).render(Self.object(["x": .string("é")]), escaping: .none, into: &output)
        #expect(output == [0xFF, 0xC3, 0xA9, 0xC3])
    }
}
