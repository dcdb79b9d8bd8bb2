import EspressoMartini
@testable import EspressoMartiniOpenAPI
import Testing

/// Bodies generated from schemas: the same every time, valid against the schema where it can be met.
@Suite struct SchemaGenerationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let schema: String
        let json: String
        var version = "3.0.3"
        var components = ""
    }

    static let cases: [Case] = [
        Case(
            testDescription: "every property, required or not, in order",
            schema: "type: object\nrequired: [b]\nproperties:\n  a: {type: string}\n  b: {type: boolean}",
            json: #"{"a":"string","b":true}"#),
        Case(
            testDescription: "default, enum, then the schema's own example inside",
            schema: """
                type: object
                properties:
                  d: {type: integer, default: 7}
                  e: {type: string, enum: [b, a]}
                  x: {type: string, example: Ada}
                  bad: {type: integer, example: seven}
                """, json: #"{"d":7,"e":"b","x":"Ada","bad":0}"#),
        Case(
            testDescription: "nullable and 3.1 type lists take the first type that is not null",
            schema: "type: object\nproperties:\n  a: {type: [\"null\", integer]}\n  b: {type: [string, \"null\"]}",
            json: #"{"a":0,"b":"string"}"#, version: "3.1.0"),
        Case(
            testDescription: "3.1 const and $ref beside other keywords",
            schema:
                "type: object\nproperties:\n  k: {const: fixed}\n  n:\n    $ref: '#/components/schemas/Small'\n    minimum: 4",
            json: #"{"k":"fixed","n":4}"#, version: "3.1.0", components: "    Small: {type: integer, maximum: 9}"),
        Case(
            testDescription: "allOf merged: properties and required from each part, the narrowest bounds",
            schema: """
                allOf:
                  - {type: object, required: [id], properties: {id: {type: integer, minimum: 3}}}
                  - {properties: {id: {maximum: 5}, name: {type: string, maxLength: 2}}}
                """, json: #"{"id":3,"name":"st"}"#),
        Case(
            testDescription: "a oneOf branch whose value matches only it",
            schema: """
                oneOf:
                  - {type: object, properties: {x: {type: string}}, additionalProperties: false}
                  - {type: object, properties: {y: {type: integer}}}
                """, json: #"{"y":0}"#),
        Case(
            testDescription: "a discriminator names the branch by its mapping",
            schema: """
                oneOf:
                  - $ref: '#/components/schemas/Cat'
                discriminator: {propertyName: pet, mapping: {kitty: '#/components/schemas/Cat'}}
                """, json: #"{"pet":"kitty","lives":9}"#,
            components: "    Cat: {type: object, properties: {pet: {type: string}, lives: {type: integer, default: 9}}}"
        ),
        Case(
            testDescription: "a cycle: an optional property left out, a required one null, an array empty",
            schema: "$ref: '#/components/schemas/Node'",
            json: #"{"name":"string","next":null,"children":[]}"#,
            components:
                "    Node: {type: object, required: [name, next], properties: {name: {type: string}, next: {$ref: '#/components/schemas/Node', nullable: true}, previous: {$ref: '#/components/schemas/Node'}, children: {type: array, items: {$ref: '#/components/schemas/Node'}}}}"
        ),
        Case(
            testDescription: "unique items differ",
            schema: "type: array\nminItems: 3\nuniqueItems: true\nitems: {type: string, format: uuid}",
            json:
                #"["3fa85f64-5717-4562-b3fc-2c963f66afa6","3fa85f64-5717-4562-b3fc-000000000001","3fa85f64-5717-4562-b3fc-000000000002"]"#
        ),
        Case(
            testDescription: "numbers on a multipleOf that divides exactly",
            schema:
                "type: object\nproperties:\n  p: {type: number, minimum: 0.25, multipleOf: 0.1}\n  i: {type: integer, exclusiveMinimum: true, minimum: 10, multipleOf: 4}\n  n: {type: integer, maximum: -2}",
            json: #"{"p":0.4,"i":12,"n":-2}"#),
        Case(
            testDescription: "writeOnly properties are not in answers unless required",
            schema:
                "type: object\nrequired: [token]\nproperties:\n  password: {type: string, writeOnly: true}\n  token: {type: string, writeOnly: true}",
            json: #"{"token":"string"}"#),
        Case(
            testDescription: "a $ref to nothing stands as {}",
            schema: "type: object\nproperties:\n  lost: {$ref: '#/components/schemas/Nowhere'}",
            json: #"{"lost":{}}"#),
    ]

    @Test("generated from the schema", arguments: cases)
    func generates(_ testCase: Case) throws {
        let text = DescriptionFixture.schemaDescription(
            testCase.schema, version: testCase.version, components: testCase.components)
        try DescriptionFixture.draft(text) { drafted in
            #expect(drafted.failure == nil, "\(DescriptionFixture.warnings(drafted))")
            let body = try #require(try DescriptionFixture.defaultAnswer(drafted).body)
            #expect(body.compactText == testCase.json, "\(DescriptionFixture.warnings(drafted))")
        }
    }

    @Test("the warnings of a cycle and of an example that breaks its schema name where they are")
    func warnings() throws {
        let text = DescriptionFixture.schemaDescription(
            "type: object\nproperties:\n  bad: {type: integer, example: seven}\n  node: {$ref: '#/components/schemas/Node'}",
            components: "    Node: {type: object, properties: {next: {$ref: '#/components/schemas/Node'}}}"
        )
        try DescriptionFixture.draft(text) { drafted in
            #expect(
                DescriptionFixture.warnings(drafted) == [
                    "api.yaml: warning: at /paths/~1thing/get/responses/200/content/application~1json/schema/properties/bad/example: this example does not validate against its schema (expected an integer, found a string); a value is generated instead",
                    "api.yaml: warning: at /components/schemas/Node/properties/next: $ref '#/components/schemas/Node' leads back into a schema it is part of; the cycle is cut here (an optional property is left out, a required one is null, an array is empty)",
                ])
        }
    }

    @Test("a schema no value can meet: the body is still written, with a warning")
    func unsatisfiable() throws {
        let text = DescriptionFixture.schemaDescription("type: integer\nminimum: 5\nmaximum: 1")
        try DescriptionFixture.draft(text) { drafted in
            #expect(drafted.failure == nil)
            #expect(
                DescriptionFixture.warnings(drafted).first?.contains(
                    "the value generated for this schema does not validate against it (5 is above its maximum 1); edit the body file"
                ) == true)
        }
    }

    @Test("the same description drafts the same exchanges")
    func deterministic() throws {
        let text = DescriptionFixture.schemaDescription(
            "$ref: '#/components/schemas/Node'",
            components:
                "    Node: {type: object, properties: {a: {type: string, format: date-time}, kids: {type: array, minItems: 2, uniqueItems: true, items: {$ref: '#/components/schemas/Node'}}}}"
        )
        let first = try DescriptionFixture.draft(text) { try DescriptionFixture.defaultAnswer($0).body }
        let second = try DescriptionFixture.draft(text) { try DescriptionFixture.defaultAnswer($0).body }
        #expect(first != nil && first == second)
    }
}
