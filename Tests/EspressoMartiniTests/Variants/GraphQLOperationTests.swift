import EspressoMartini
import Testing

@Suite struct GraphQLOperationTests {
    typealias Operation = GraphQLOperation

    static func q(_ name: String?) -> Operation { Operation(type: .query, name: name) }
    static func m(_ name: String?) -> Operation { Operation(type: .mutation, name: name) }
    static func s(_ name: String?) -> Operation { Operation(type: .subscription, name: name) }

    @Test(
        arguments: [
            ("", []),
            ("  \n\t,,, # only a comment", []),
            ("{ user { id } }", [q(nil)]),
            ("query { user { id } }", [q(nil)]),
            ("query GetUser { user { id } }", [q("GetUser")]),
            ("mutation AddUser { add { id } }", [m("AddUser")]),
            ("subscription OnUser { user { id } }", [s("OnUser")]),
            ("query A { a } mutation B { b } subscription C { c }", [q("A"), m("B"), s("C")]),
            ("query A{a}query B{b}", [q("A"), q("B")]),
            ("\u{FEFF}query Bom { a }", [q("Bom")]),
            ("query\u{FEFF}Bom { a }", [q("Bom")]),
            ("query,Commas,{,a,}", [q("Commas")]),
            ("query\r\nCR\r{ a\r }", [q("CR")]),
            // comments with braces and names in them
            ("# query Hidden { x }\nquery Shown { a }", [q("Shown")]),
            ("query A { a # } closing brace in a comment\n }", [q("A")]),
            ("query A { a } # mutation B { b }", [q("A")]),
            // strings and block strings with braces, #, quotes
            (#"query A { a(s: "}{ # \" ") }"#, [q("A")]),
            (#"query A { a(s: """ } { # " "" \""" still inside """) }"#, [q("A")]),
            (#"query A { a(s: """""") } query B { b }"#, [q("A"), q("B")]),
            (#"query A { a(s: "", t: "x") }"#, [q("A")]),
            (#"query A { a(s: "caf\u00e9 \u{1F600} \/ \\ \b\f\n\r\t") }"#, [q("A")]),
            ("query A { a(s: \"multi-byte é 猫 😀\") }", [q("A")]),
            // variables with default values, directives
            (#"query A($id: ID! = "}", $list: [Int!]! = [1, 2], $o: In = {a: {b: "{"}}) { a(id: $id) }"#, [q("A")]),
            (#"query A($n: Float = -1.5e+3, $z: Int = 0) { a }"#, [q("A")]),
            ("query A @live @cache(ttl: 10, tags: [\"}\"]) { a }", [q("A")]),
            ("query ($id: ID) { a }", [q(nil)]),
            ("query @live { a }", [q(nil)]),
            // fragments before, between and after
            ("fragment F on User { id } query A { ...F }", [q("A")]),
            ("query A { ...F } fragment F on User @x { id name }", [q("A")]),
            ("fragment F on U { a } { ...F } fragment G on U { b }", [q(nil)]),
            ("query A { ... on User { id } ... @include(if: true) { name } }", [q("A")]),
            ("fragment F on U { a }", []),
            // names that look like keywords
            ("query query { query }", [q("query")]),
            ("mutation fragment { a }", [m("fragment")]),
            ("query on { on }", [q("on")]),
            ("query _private9 { a }", [q("_private9")]),
            // deep nesting, no recursion
            (
                "query Deep " + String(repeating: "{ a ", count: 10_000) + String(repeating: "}", count: 10_000),
                [q("Deep")]
            ),
        ] as [(String, [Operation])])
    func readsOperations(_ document: String, _ operations: [Operation]) {
        #expect(GraphQLOperation.operations(in: document) == operations)
    }

    @Test(arguments: [
        "query A { a",  // unclosed selection set
        "query A { a } }",
        "query A { a )",
        "query A ( a }",
        "{ a ] }",
        "query A",
        "query A ($x: Int)",
        "query A @dir",
        "query A @ { a }",
        "query A @(x: 1) { a }",
        "query 1 { a }",
        #"query A { a(s: "unterminated) }"#,
        "query A { a(s: \"line\nbreak\") }",
        #"query A { a(s: """unterminated block) }"#,
        #"query A { a(s: """ ends with an escaped quote \""") }"#,
        #"query A { a(s: "\x") }"#,
        #"query A { a(s: "\u12") }"#,
        #"query A { a(s: "\u{}") }"#,
        #"query A { a(s: "\u{110000}") }"#,
        #"query A { a(s: "\u{D800}") }"#,
        #"query A { a(s: "\u{1F600") }"#,
        #"query A { a(s: "trailing backslash \"#,
        "query A { a(n: 01) }",
        "query A { a(n: 1.) }",
        "query A { a(n: 1e) }",
        "query A { a(n: 1.5.2) }",
        "query A { a(n: 12abc) }",
        "query A { a(n: -) }",
        "query A { a(n: 1e+) }",
        "query A { a .. b }",
        "query A { a . b }",
        "query A { a % b }",
        "query A { a ~ }",
        "query A { é }",
        "type User { id: ID }",
        "schema { query: Query }",
        "A { a }",
        "fragment on on U { a }",
        "fragment F U { a }",
        "fragment F on { a }",
        "fragment F on U",
        "\"description\" query A { a }",
        "}",
        "{",
        "((((",
        "\"",
        "\"\"\"",
        "\"\"\"\\",
        "\\",
        "-",
        "\u{FEFF}\u{00}",
        "query A { a } garbage",
        String(repeating: "{", count: 100_000),
    ])
    func rejectsWhatIsNotAnExecutableDocument(_ document: String) {
        #expect(GraphQLOperation.operations(in: document) == nil)
    }

    @Test(
        arguments: [
            ("query A { a }", nil, q("A")),
            ("{ a }", nil, q(nil)),
            ("mutation { a }", nil, m(nil)),
            ("query A { a } mutation B { b }", nil, nil),
            ("query A { a } mutation B { b }", "B", m("B")),
            ("query A { a } mutation B { b }", "A", q("A")),
            ("query A { a } mutation B { b }", "C", nil),
            ("query A { a }", "", q("A")),
            ("query A { a }", "Other", nil),
            ("{ a }", "A", nil),
            ("fragment F on U { a } query A { ...F } fragment G on U { b }", nil, q("A")),
            ("", nil, nil),
            ("fragment F on U { a }", nil, nil),
            ("query A { a", "A", nil),
            ("query A { a } query A { b }", "A", q("A")),
        ] as [(String, String?, Operation?)])
    func selectsTheOperationARequestRuns(_ document: String, _ operationName: String?, _ expected: Operation?) {
        #expect(GraphQLOperation.selected(inDocument: document, operationName: operationName) == expected)
    }

    @Test(
        arguments: [
            (
                JSONValue.object([
                    .init(key: "query", value: .string("query A { a } mutation B { b }")),
                    .init(key: "operationName", value: .string("B")),
                ]), m("B")
            ),
            (
                .object([
                    .init(key: "query", value: .string("query A { a }")), .init(key: "operationName", value: .null),
                    .init(key: "variables", value: .object([])),
                ]), q("A")
            ),
            (.object([.init(key: "query", value: .string("{ a }"))]), q(nil)),
            (.object([.init(key: "query", value: .integer(1))]), nil),
            (.object([.init(key: "operationName", value: .string("A"))]), nil),
            (.array([]), nil),
            (.string("query A { a }"), nil),
        ] as [(JSONValue, Operation?)])
    func readsAPostBody(_ body: JSONValue, _ expected: Operation?) {
        #expect(GraphQLOperation.selected(inRequestBody: body) == expected)
    }

    @Test(
        arguments: [
            ("query=query%20A%20%7B%20a%20%7D", q("A")),
            ("query=query+A+%7Ba%7D+mutation+B+%7Bb%7D&operationName=B", m("B")),
            ("query=%7Ba%7D&operationName=", q(nil)),
            ("operationName=A", nil),
            ("", nil),
        ] as [(String, Operation?)])
    func readsAGetQuery(_ query: String, _ expected: Operation?) {
        #expect(GraphQLOperation.selected(inQuery: URLEncodedForm(parsing: query)) == expected)
    }

    /// Every prefix of a valid document: never traps, never reads past the end.
    @Test func survivesEveryPrefixOfADocument() {
        let document = #"""
            # comment { "
            fragment F on U @d(a: [1, -2.5e3]) { a ...G }
            query Q($v: [In!] = {k: "}\u{1F600}", b: """block \""" }""" }) @live { a(s: "x\ty") { ...F } }
            """#
        let bytes = Array(document.utf8)
        for end in 0...bytes.count {
            let prefix = String(decoding: bytes[..<end], as: UTF8.self)
            let operations = GraphQLOperation.operations(in: prefix)
            if end == bytes.count { #expect(operations == [Self.q("Q")]) }
        }
    }
}
