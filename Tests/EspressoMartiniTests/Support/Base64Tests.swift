import EspressoMartini
import Testing

/// `body_base64`'s decoding and the encoding listings write: RFC 4648's test vectors, white space, padding
/// left out, and where a bad text goes wrong.
@Suite struct Base64Tests {
    static let vectors = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test func theRFCVectorsBothWays() throws {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(try Base64.decode(encoded).get() == Array(plain.utf8))
        }
    }

    @Test func everyByteValueRoundTrips() throws {
        let bytes = (0...255).map(UInt8.init) + [0, 0xFF, 0x80]
        #expect(try Base64.decode(Base64.encode(bytes)).get() == bytes)
    }

    @Test func whiteSpaceIsSkippedAndPaddingMayBeLeftOut() throws {
        #expect(try Base64.decode("Zm9v\nYmFy\r\n").get() == Array("foobar".utf8))
        #expect(try Base64.decode("Zm8").get() == Array("fo".utf8))
        #expect(try Base64.decode(" Zg ").get() == Array("f".utf8))
    }

    @Test(arguments: [
        ("Zm9v!", 1, 5, "'!' is not a base64 digit"),
        ("Zm9v\nYm=a", 2, 4, "a digit after the '=' padding"),
        ("Zg===", 1, 5, "'=' where no padding can be"),
        ("Zm9vY", 1, 6, "the text ends one digit into a byte"),
        ("Zm9vé", 1, 5, "a non-ASCII byte is not a base64 digit"),
    ])
    func aBadTextSaysWhereAndWhy(text: String, line: Int, column: Int, message: String) {
        guard case .failure(let problem) = Base64.decode(text) else {
            Issue.record("\(text) decoded")
            return
        }
        #expect(problem.message == message)
        #expect(problem.position == SourcePosition(line: line, column: column))
    }
}
