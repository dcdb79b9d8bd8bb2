@testable import EspressoMartini
import EspressoMartiniJansson
import Testing

/// The scanner that reads a request body's value at a JSON Pointer without building the document must
/// say exactly what jansson says: which texts are JSON, and what is at each pointer.
@Suite struct JSONScannerTests {
    static let documents =
        [
            #"{"customer": {"tier": "gold", "id": 7}, "items": [{"id": 1}, {"id": 2, "q": [true, false, null]}]}"#,
            #"  [1, -2.5e+3, 0, 0.5, 1E2, "x", {}, []]  "#,
            #"{"a\"b": 1, "c~d": {"e/f": 2}, "\u00e9": "é", "\ud83d\ude00": "smile"}"#,
            #"{"dup": 1, "dup": 2}"#,
            #""just a string""#, "42", "true", "null", "-0",
            // Not JSON:
            "", " ", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "[01]", "[1.]", "[.5]", "[1e]", "[-]", "tru",
            "nul",
            "\"unterminated", "\"tab\there\"", "\"\\x\"", "\"\\u12\"", "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\"",
            "[1] [2]",
            "{\"a\": 1} x", "\u{FEFF}{}",
            String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000),
            String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
            // Long strings, read eight bytes at a time: what needs a look, at every place in a word.
            #"{"customer": {"tier": "gold-and-then-some-more", "note": "0123456789abcdef\"quoted\" and \\ more"}}"#,
            #"{"customer": {"tier": "caf\u00e9 cr\u00e8me br\u00fbl\u00e9e, \u00fcber-long text"}, "x": "\ud83d\ude00\ud83d\ude00 emoji"}"#,
            "{\"customer\": {\"tier\": \"café crème brûlée, über-long text 😀😀\"}}",
            "{\"customer\": {\"tier\": \"abcdefghijk\u{1}lmnop\"}}",
            "{\"customer\": {\"tier\": \"abcdefghijklmno\u{7F}p\"}}",
            "{\"customer\": {\"tier\": \"abcdefghijklmn\tp\"}}", "[\"abcdefgh\", \"ijklmnopq\"]",
        ]
        + (0..<9).map { offset in
            "[\"" + String(repeating: "a", count: offset) + "\u{1F}" + String(repeating: "b", count: 9) + "\"]"
        }
        + (0..<9).map { offset in
            "[\"" + String(repeating: "a", count: offset) + "\\\"" + String(repeating: "b", count: 9) + "\"]"
        }
        + (0..<9).map { offset in
            "[\"" + String(repeating: "a", count: offset) + "é" + String(repeating: "b", count: 9) + "\"]"
        }
        + (0..<9).map { offset in
            "[\"" + String(repeating: "a", count: offset) + "\"" + String(repeating: "b", count: 9) + "\"]"
        }
    static let pointers = [
        "", "/customer/tier", "/customer", "/items/1/q/0", "/items/01", "/items/2", "/a\"b", "/c~0d/e~1f",
        "/é", "/😀", "/dup", "/0", "/1", "/7", "/missing", "/customer/tier/x",
    ]

    @Test func agreesWithJanssonOnEveryDocumentAndPointer() throws {
        let parser = JanssonParser()
        for document in Self.documents {
            let bytes = Array(document.utf8)
            let full: JSONValue? = if case .success(let value) = parser.parse(bytes) { value } else { nil }
            for text in Self.pointers {
                let pointer = try JSONPointer(parsing: text)
                let located = bytes.withUnsafeBufferPointer {
                    JSONScanner.locate(pointer.tokens, in: $0, parser: parser)
                }
                // Duplicate keys: jansson's configuration parser rejects them; the scanner takes the first.
                if document.contains("dup") {
                    #expect(located != nil)
                    continue
                }
                guard let full else {
                    #expect(
                        located == nil, "\(document.prefix(40).debugDescription) is not JSON, yet the scanner read it")
                    continue
                }
                let expected = pointer.value(in: full)
                let range = try #require(
                    located, "\(document.prefix(40).debugDescription) is JSON, yet the scanner refused it")
                let found: JSONValue? = range.flatMap { try? parser.parse(Array(bytes[$0])).get() }
                #expect(found == expected, "\(document.prefix(60).debugDescription) at \(text.debugDescription)")
                let read = range.flatMap { range in
                    bytes.withUnsafeBufferPointer { JSONScanner.value(at: range, in: $0, parser: parser) }
                }
                #expect(
                    read == expected,
                    "the value read at \(text.debugDescription) in \(document.prefix(60).debugDescription)")
            }
        }
    }

    @Test func theFirstOfTwoDuplicateKeysCounts() {
        let bytes = Array(#"{"dup": 1, "dup": 2}"#.utf8)
        let range = bytes.withUnsafeBufferPointer { JSONScanner.locate(["dup"], in: $0, parser: JanssonParser()) }
        #expect(range.flatMap { $0 }.map { String(decoding: bytes[$0], as: UTF8.self) } == "1")
    }
}
