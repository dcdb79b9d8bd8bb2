import EspressoMartiniClient
import Foundation
import Testing

/// Typed conditions encode to the `when` object of doc/variants.md, key for key.
@Suite struct ConditionTests {
    @Test func eachConditionHasTheKeyTheServerReads() throws {
        #expect(try Condition.whenJSON([.query("page", .equals("2"))]) == ["query": ["page": "2"]])
        #expect(
            try Condition.whenJSON([.header("X-Api-Key", .present(false))]) == [
                "headers": ["X-Api-Key": ["present": false]]
            ])
        #expect(
            try Condition.whenJSON([.cookie("session", .prefix("4f"))]) == ["cookies": ["session": ["prefix": "4f"]]])
        #expect(try Condition.whenJSON([.path("id", .regex("\\d+"))]) == ["path": ["id": ["regex": "\\d+"]]])
        #expect(try Condition.whenJSON([.body(.contains("x"))]) == ["body": ["contains": "x"]])
        #expect(try Condition.whenJSON([.form("size", "large")]) == ["form": ["size": "large"]])
        #expect(
            try Condition.whenJSON([.json("/customer/tier", .equals("gold"))]) == ["json": ["/customer/tier": "gold"]])
        #expect(
            try Condition.whenJSON([.graphQL(operation: "GetUser", type: .query)])
                == ["graphql": ["operation": "GetUser", "type": "query"]])
        #expect(
            try Condition.whenJSON([.graphQL(operation: .prefix("Get"))]) == [
                "graphql": ["operation": ["prefix": "Get"]]
            ])
        #expect(try Condition.whenJSON([]) == [:])
    }

    @Test func conditionsOfOneKindShareItsObject() throws {
        #expect(
            try Condition.whenJSON([
                .json("/a", .equals(1)), .json("/b", .equals([1, "x", nil])), .query("q", "espresso"),
            ]) == [
                "json": ["/a": ["equals": 1], "/b": ["equals": [1, "x", nil]]], "query": ["q": "espresso"],
            ])
        let object = try Condition.whenObject([.json("/a", .equals(true)), .query("q", "x")])
        #expect(
            try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
                == Data(#"{"json":{"\/a":{"equals":true}},"query":{"q":"x"}}"#.utf8))
    }

    @Test func jsonComparesWithAnyJSONValueOrAnEncodable() throws {
        struct Customer: Encodable {
            let tier: String
            let since: Int
        }
        let customer = try JSONValue(encoding: Customer(tier: "gold", since: 2019))
        #expect(
            try Condition.whenJSON([.json("/customer", .equals(customer))])
                == ["json": ["/customer": ["equals": ["tier": "gold", "since": 2019]]]])
        #expect(try Condition.whenJSON([.json("", .equals(1.5))]) == ["json": ["": ["equals": 1.5]]])
    }

    @Test func whatTheServerWouldRefuseIsRefusedHere() {
        #expect(throws: MockServerError.self) { try Condition.whenJSON([.json("tier", "gold")]) }
        #expect(throws: MockServerError.self) { try Condition.whenJSON([.query("page", .equals(2))]) }
        #expect(throws: MockServerError.self) { try Condition.whenJSON([.header("A", "1"), .header("a", "2")]) }
        #expect(throws: MockServerError.self) { try Condition.whenJSON([.body("a"), .body("b")]) }
        #expect(throws: MockServerError.self) { try Condition.whenJSON([.graphQL()]) }
        #expect(throws: MockServerError.self) { try Condition.whenJSON([.cookie("", "x")]) }
    }

    @Test func conditionsReadAsWords() {
        #expect(Condition.query("page", "2").description == #"query "page" equals "2""#)
        #expect(
            Condition.json("/customer/tier", .equals("gold")).description == #"json "/customer/tier" equals "gold""#)
        #expect(Condition.header("Authorization", .present(false)).description == #"header "Authorization" is absent"#)
        #expect(
            Condition.graphQL(operation: "GetUser", type: .query).description
                == #"graphql operation equals "GetUser" type is query"#)
    }
}
