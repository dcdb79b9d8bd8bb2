import EspressoMartini
import EspressoMartiniJansson
@testable import EspressoMartiniOpenAPI
import Testing

/// The checks an example (and a generated body) goes through, with the messages the warnings quote.
@Suite struct SchemaValidatorTests {
    static func problem(_ value: String, _ schema: String, version: OpenAPIVersion = .openAPI30) throws -> String? {
        let parser = JanssonParser()
        let document = try parser.parse(
            Array(#"{"schema": \#(schema), "components": {"schemas": {"Id": {"type": "integer"}}}}"#.utf8)
        ).get()
        let report = ImportReport(rootFile: "api.json", rootDisplayName: "api.json")
        let files = DescriptionFiles(
            rootFile: "api.json", root: document, parser: DescriptionFixture.parser, report: report)
        let validator = SchemaValidator(files: files, version: version)
        let schemaValue = try #require(document.member("schema"))
        let located = Located(value: schemaValue, location: JSONLocation(file: "api.json", tokens: ["schema"]))
        return validator.problem(in: try parser.parse(Array(value.utf8)).get(), against: located)?.description
    }

    @Test(
        "problems, each where it is in the value",
        arguments: [
            (#"{"a": "x"}"#, #"{"properties": {"a": {"type": "integer"}}}"#, "/a: expected an integer, found a string"),
            ("3", #"{"type": "integer", "minimum": 5}"#, "3 is below its minimum 5"),
            (
                "5", #"{"type": "integer", "minimum": 5, "exclusiveMinimum": true}"#,
                "5 is below its exclusive minimum 5"
            ),
            ("0.3", #"{"type": "number", "multipleOf": 0.1}"#, "0.3 is not a multiple of 0.1"),
            (#""abcd""#, #"{"maxLength": 3}"#, #""abcd" has 4 characters, more than its maxLength 3"#),
            (#""ab1""#, #"{"pattern": "^[a-z]+$"}"#, #""ab1" does not match its pattern ^[a-z]+$"#),
            (#""c""#, #"{"enum": ["a", "b"]}"#, #""c" is not one of its enum values ["a","b"]"#),
            ("[1, 1]", #"{"uniqueItems": true}"#, "/1: repeats an earlier item, and its array's items must be unique"),
            ("[]", #"{"minItems": 1}"#, "has 0 items, fewer than its minItems 1"),
            (#"{}"#, #"{"required": ["id"]}"#, "lacks the required property 'id'"),
            (
                #"{"x": 1}"#, #"{"properties": {}, "additionalProperties": false}"#,
                "has the property 'x', which its schema does not allow (additionalProperties is false)"
            ),
            (
                ##"{"id": "a"}"##, ##"{"properties": {"id": {"$ref": "#/components/schemas/Id"}}}"##,
                "/id: expected an integer, found a string"
            ),
            (
                "1", #"{"oneOf": [{"type": "integer"}, {"type": "number"}]}"#,
                "matches 2 of its oneOf schemas, not exactly one"
            ),
            (
                #""x""#, #"{"anyOf": [{"type": "integer"}, {"type": "boolean"}]}"#,
                "matches none of its anyOf schemas (the first: expected an integer, found a string)"
            ),
            ("null", #"{"type": "string"}"#, "expected a string, found null"),
        ])
    func problems(_ value: String, _ schema: String, _ expected: String) throws {
        #expect(try Self.problem(value, schema) == expected)
    }

    static let validCases: [(String, String, OpenAPIVersion)] = [
        ("null", #"{"type": "string", "nullable": true}"#, OpenAPIVersion.openAPI30),
        ("2.0", #"{"type": "integer"}"#, .openAPI30),
        ("0.5", #"{"type": "number", "multipleOf": 0.25}"#, .openAPI30),
        ("null", #"{"type": ["string", "null"]}"#, .openAPI31),
        ("4", #"{"exclusiveMinimum": 3}"#, .openAPI31),
        (
            "1", ##"{"$ref": "#/components/schemas/Id", "description": "ignored beside a $ref in 3.0", "maximum": 0}"##,
            .openAPI30
        ),
        (#""é""#, #"{"maxLength": 1}"#, .openAPI30),
        (##"{"a": 1}"##, ##"{"$ref": "#/components/schemas/Nowhere"}"##, .openAPI30),
    ]

    @Test("valid values", arguments: validCases)
    func valid(_ value: String, _ schema: String, _ version: OpenAPIVersion) throws {
        #expect(try Self.problem(value, schema, version: version) == nil)
    }

    @Test("3.1 reads keywords beside a $ref")
    func siblings() throws {
        #expect(
            try Self.problem("7", ##"{"$ref": "#/components/schemas/Id", "maximum": 5}"##, version: .openAPI31)
                == "7 is above its maximum 5")
    }
}
