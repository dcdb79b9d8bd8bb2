import EspressoMartini
import EspressoMartiniJansson
import Testing

/// `endpoints` and `explain` mark templated responses (doc/templates.md): `template` in text, `"template": true` in JSON,
/// and nothing on a response without one.
@Suite struct TemplateListingTests {
    static let files = [
        "orders/{id}/PUT/configuration.json":
            #"[{"template": true, "status_code": 201, "body": "{{request.pathParameters.id}}"}, {"status_code": 409}]"#
    ]

    @Test func endpointsMarksTemplatedResponses() throws {
        let fixture = try DeciderFixture(files: Self.files)
        let tree = fixture.service.tree.exchangeTree
        #expect(
            tree.listing
                == "PUT  /orders/{id}  1: 201 body \"{{request.pathParameters.id}}\" template · 2: 409 no body\n")
        guard case .array(let exchanges) = tree.listingJSON, case .object(let members)? = exchanges.first,
            case .array(let responses)? = members.first(where: { $0.key == "responses" })?.value
        else {
            Issue.record("unexpected listing \(tree.listingJSON.compactText)")
            return
        }
        #expect(responses.map { $0.descendant(at: ["template"]) } == [.bool(true), nil])
    }

    @Test func explainMarksATemplatedResponse() throws {
        let fixture = try DeciderFixture(files: Self.files)
        let explanation = Explanation(
            explaining: Request(method: "PUT", path: "/orders/7"), in: fixture.service.tree, decider: fixture.decider)
        #expect(explanation.text.contains("response: 201 body \"{{request.pathParameters.id}}\" template\n"))
        #expect(explanation.json.descendant(at: ["response", "template"]) == .bool(true))
    }
}
