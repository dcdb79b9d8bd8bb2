import EspressoMartini
import EspressoMartiniJansson
import Testing

@Suite struct JanssonParserTests {
    static func parse(_ text: String) -> Result<JSONValue, JSONSyntaxError> {
        JanssonParser().parse(Array(text.utf8))
    }

    @Test func convertsEveryKindKeepingMemberOrder() throws {
        let value = try Self.parse(#"{"z": [1, -2.5, "s\u00e9", true, false, null], "a": {}}"#).get()
        #expect(
            value
                == .object([
                    JSONMember(
                        key: "z",
                        value: .array([.integer(1), .real(-2.5), .string("sé"), .bool(true), .bool(false), .null])),
                    JSONMember(key: "a", value: .object([])),
                ]))
    }

    @Test func acceptsAnyTopLevelValue() throws {
        #expect(try Self.parse(#""text""#).get() == .string("text"))
        #expect(try Self.parse(" 7 ").get() == .integer(7))
    }

    @Test(arguments: [
        (#"{"a": 1, "a": 2}"#, 1, 12, #"invalid JSON: duplicate object key near '"a"'"#),
        ("[1, 2", 1, 5, "invalid JSON: ']' expected near end of file"),
        ("{\"a\":\n  \"héllo\" x}", 2, 11, "invalid JSON: '}' expected near 'x'"),
        ("", 1, 1, "invalid JSON: the file is empty"),
    ])
    func reportsWhereAndWhy(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        #expect(
            Self.parse(text)
                == .failure(JSONSyntaxError(position: SourcePosition(line: line, column: column), message: message)))
    }

    @Test func stringsWithEmbeddedNulAreRejected() {
        guard case .failure = Self.parse(#"{"a": "x\u0000y"}"#) else {
            Issue.record("a NUL inside a string was accepted")
            return
        }
    }
}
