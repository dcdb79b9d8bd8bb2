import EspressoMartini
import Testing

@Suite struct JSONPointerTests {
    @Test(
        arguments: [
            ("", []),
            ("/", [""]),
            ("/user/name", ["user", "name"]),
            ("/items/0/id", ["items", "0", "id"]),
            ("/a~1b", ["a/b"]),
            ("/m~0n", ["m~n"]),
            ("/~01", ["~1"]),
            ("/~10", ["/0"]),
            ("//", ["", ""]),
            ("/a/", ["a", ""]),
            ("/ spaced key/é", [" spaced key", "é"]),
            ("/%25", ["%25"]),
        ] as [(String, [String])])
    func parses(_ text: String, _ tokens: [String]) throws {
        let pointer = try JSONPointer(parsing: text)
        #expect(pointer.tokens == tokens)
        #expect(pointer.text == text)
    }

    @Test(arguments: [
        (
            "user/name",
            "'user/name' is not a JSON Pointer: it must be \"\" (the whole document) or start with '/', as in '/user/name'"
        ),
        (
            "#/user",
            "'#/user' is not a JSON Pointer: it must be \"\" (the whole document) or start with '/', as in '/#/user'"
        ),
        (" /a", "' /a' is not a JSON Pointer: it must be \"\" (the whole document) or start with '/', as in '/ /a'"),
        ("/a~2", "'/a~2' is not a JSON Pointer: '~' must be followed by 0 (for '~') or 1 (for '/')"),
        ("/a~", "'/a~' is not a JSON Pointer: '~' must be followed by 0 (for '~') or 1 (for '/')"),
        ("/~/x", "'/~/x' is not a JSON Pointer: '~' must be followed by 0 (for '~') or 1 (for '/')"),
    ])
    func rejects(_ text: String, _ message: String) {
        let error = #expect(throws: JSONPointer.SyntaxError.self) { try JSONPointer(parsing: text) }
        #expect(error?.message == message)
    }

    static let document = json(
        #"""
        {"user": {"name": "Ada", "tags": ["a", "b"], "": "empty key", "a/b": 1, "m~n": 2, "0": "zero key"},
         "items": [{"id": 7}, {"id": 8}, null], "flag": false, "nothing": null}
        """#)

    @Test(
        arguments: [
            ("", document),
            ("/user/name", .string("Ada")),
            ("/user/tags/0", .string("a")),
            ("/user/tags/1", .string("b")),
            ("/user/tags/2", nil),
            ("/user/tags/01", nil),
            ("/user/tags/-", nil),
            ("/user/tags/+1", nil),
            ("/user/tags/-1", nil),
            ("/user/tags/1.0", nil),
            ("/user/tags/ 1", nil),
            ("/user/tags/99999999999999999999999", nil),
            ("/user/tags/name", nil),
            ("/user/", .string("empty key")),
            ("/user/a~1b", .integer(1)),
            ("/user/m~0n", .integer(2)),
            ("/user/0", .string("zero key")),
            ("/items/1/id", .integer(8)),
            ("/items/2", .null),
            ("/items/2/id", nil),
            ("/flag", .bool(false)),
            ("/flag/x", nil),
            ("/nothing", .null),
            ("/missing", nil),
            ("/user/name/first", nil),
            ("/Items", nil),
        ] as [(String, JSONValue?)])
    func evaluates(_ text: String, _ expected: JSONValue?) throws {
        #expect(try JSONPointer(parsing: text).value(in: Self.document) == expected)
    }

    @Test func evaluatesOnAScalarDocument() throws {
        #expect(try JSONPointer(parsing: "").value(in: .integer(3)) == .integer(3))
        #expect(try JSONPointer(parsing: "/0").value(in: .string("abc")) == nil)
        #expect(try JSONPointer(parsing: "/0").value(in: .array([.integer(5)])) == .integer(5))
    }
}
