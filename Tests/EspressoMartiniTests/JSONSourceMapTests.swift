import EspressoMartini
import Testing

@Suite struct JSONSourceMapTests {
    static func map(_ text: String) -> JSONSourceMap { JSONSourceMap(Array(text.utf8)) }
    static func at(_ line: Int, _ column: Int) -> SourcePosition { SourcePosition(line: line, column: column) }

    static let nested = """
        {
          "status_code": 200,
          "headers": {
            "X-A": "1",
            "Set-Cookie": ["a", "b"]
          },
          "list": [ {"delay": 1.5}, [true, null] ]
        }
        """

    @Test(arguments: [
        ([String](), at(1, 1)),
        (["status_code"], at(2, 18)),
        (["headers"], at(3, 14)),
        (["headers", "X-A"], at(4, 12)),
        (["headers", "Set-Cookie"], at(5, 19)),
        (["headers", "Set-Cookie", "0"], at(5, 20)),
        (["headers", "Set-Cookie", "1"], at(5, 25)),
        (["list"], at(7, 11)),
        (["list", "0"], at(7, 13)),
        (["list", "0", "delay"], at(7, 23)),
        (["list", "1"], at(7, 29)),
        (["list", "1", "0"], at(7, 30)),
        (["list", "1", "1"], at(7, 36)),
    ])
    func valuePositionsInANestedDocument(_ path: [String], _ position: SourcePosition) {
        #expect(Self.map(Self.nested).value(path) == position)
    }

    @Test(arguments: [
        (["status_code"], at(2, 3)),
        (["headers"], at(3, 3)),
        (["headers", "X-A"], at(4, 5)),
        (["headers", "Set-Cookie"], at(5, 5)),
        (["list", "0", "delay"], at(7, 14)),
    ])
    func keyPositionsInANestedDocument(_ path: [String], _ position: SourcePosition) {
        #expect(Self.map(Self.nested).key(path) == position)
    }

    @Test func unknownPathsFallBack() {
        let map = Self.map(Self.nested)
        #expect(map.value(["nope"]) == Self.at(1, 1))
        // An array element has no key: its key position is its value position.
        #expect(map.key(["list", "1"]) == Self.at(7, 29))
    }

    @Test func columnsCountCharactersNotBytes() {
        let map = Self.map(#"{"日本": "é", "k": 1, "😀": [2]}"#)
        #expect(map.value(["日本"]) == Self.at(1, 8))
        #expect(map.key(["k"]) == Self.at(1, 13))
        #expect(map.value(["k"]) == Self.at(1, 18))
        #expect(map.key(["😀"]) == Self.at(1, 21))
        #expect(map.value(["😀", "0"]) == Self.at(1, 27))
    }

    @Test func escapedKeysAreDecoded() {
        let map = Self.map(
            #"{"a\"b": 1, "c\\": 2, "\u00e9t\u00E9": 3, "\ud83d\ude00": 4, "tab\there\n/\/": 5, "x": 6}"#)
        #expect(map.value(["a\"b"]) == Self.at(1, 10))
        #expect(map.value(["c\\"]) == Self.at(1, 20))
        #expect(map.value(["été"]) == Self.at(1, 40))
        #expect(map.value(["😀"]) == Self.at(1, 59))
        #expect(map.value(["tab\there\n//"]) == Self.at(1, 80))
        #expect(map.value(["x"]) == Self.at(1, 88))
    }

    @Test func stringValuesContainingStructuralCharactersDoNotConfuseTheScan() {
        let map = Self.map(#"{"a": "}],{\"[", "b": 2}"#)
        #expect(map.value(["b"]) == Self.at(1, 23))
    }

    @Test func crlfLineEndsAndTabsCountOneColumnEach() {
        let map = Self.map("{\r\n\t\"a\": 1,\r\n\t\"b\":\t2\r\n}")
        #expect(map.key(["a"]) == Self.at(2, 2))
        #expect(map.value(["a"]) == Self.at(2, 7))
        #expect(map.value(["b"]) == Self.at(3, 7))
    }

    /// The map is public and promises never to trap: on input that is not JSON it keeps what it
    /// found up to there (and for lone surrogates, which jansson rejects, it carries on).
    @Test(arguments: [
        (#"{"a": 1, "b""#, ["a"], at(1, 7)),
        ("[1, {", ["0"], at(1, 2)),
        (#"  [{"a" 1}]"#, ["0"], at(1, 4)),
        (#"{"\ud800\n": 1, "b": 2}"#, ["b"], at(1, 22)),
        (#"{"\ud800\u0041": 1, "b": 2}"#, ["b"], at(1, 26)),
        (#"{"\ud800\u0041": 1, "b": 2}"#, ["\u{FFFD}"], at(1, 18)),
        (#"{"\udc00": 1, "b": 2}"#, ["b"], at(1, 20)),
        (#""unterminated"#, [], at(1, 1)),
        ("", [], at(1, 1)),
    ])
    func malformedInputDoesNotTrap(_ text: String, _ path: [String], _ position: SourcePosition) {
        #expect(Self.map(text).value(path) == position)
    }
}
