import EspressoMartini
import EspressoMartiniJansson
@testable import EspressoMartiniOpenAPI
import Testing

/// JSON or YAML, told apart by the first character; errors with their line and column.
@Suite struct DescriptionParserTests {
    let parser = DescriptionFixture.parser

    @Test(
        "JSON, YAML, JSON-like YAML, a byte order mark",
        arguments: [
            (#"{"openapi": "3.0.0"}"#, #"{"openapi":"3.0.0"}"#),
            ("openapi: 3.0.0\n", #"{"openapi":"3.0.0"}"#),
            ("{openapi: 3.0.0, # a comment\n paths: {}}", #"{"openapi":"3.0.0","paths":{}}"#),
            ("\u{FEFF}openapi: 3.1.0", #"{"openapi":"3.1.0"}"#),
            ("swagger: 2.0\n", #"{"swagger":2.0}"#),
        ])
    func reads(_ text: String, _ json: String) throws {
        #expect(try parser.parse(Array(text.utf8), named: "api.yaml").get().compactText == json)
    }

    @Test("neither: the JSON parser's error for a .json file, libyaml's for the rest")
    func errors() {
        #expect(
            parser.parse(Array("{\"a\": }".utf8), named: "api.json")
                == .failure(
                    .syntax(
                        JSONSyntaxError(
                            position: SourcePosition(line: 1, column: 7),
                            message: "invalid JSON: unexpected token near '}'"
                        ))))
        #expect(
            parser.parse(Array("{\"a\": }".utf8), named: "api.yaml")
                == .success(.object([JSONMember(key: "a", value: .null)])))
        #expect(
            parser.parse(Array("a: b\n c: d\n".utf8), named: "api.yaml")
                == .failure(
                    .syntax(
                        JSONSyntaxError(
                            position: SourcePosition(line: 2, column: 3),
                            message: "invalid YAML: mapping values are not allowed in this context"
                        ))))
    }

    @Test("without a YAML parser, JSON is read all the same")
    func withoutYAML() {
        let jsonOnly = DescriptionParser(json: JanssonParser(), yaml: nil)
        #expect((try? jsonOnly.parse(Array("{}".utf8), named: "api.yaml").get()) == .object([]))
        #expect(jsonOnly.parse(Array("openapi: 3.0.0".utf8), named: "api.yaml") == .failure(.yamlUnavailable))
    }
}
