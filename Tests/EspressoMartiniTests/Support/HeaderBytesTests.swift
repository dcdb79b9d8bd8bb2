import EspressoMartini
import Testing

/// Header values whose bytes are not all UTF-8, kept byte for byte in a string (`HeaderBytes`).
@Suite("header bytes")
struct HeaderBytesTests {
    @Test("text stays text: no bytes kept, written as a string")
    func text() {
        let value = HeaderBytes.value(Array("café ☕".utf8))
        #expect(value == "café ☕")
        #expect(HeaderBytes.rawBytes(of: value) == nil)
        #expect(HeaderBytes.json(value) == .string("café ☕"))
    }

    @Test(
        "bytes that are not UTF-8 come back as they were, beside UTF-8 text: a Latin-1 byte, a lone continuation, a truncated sequence, an overlong form",
        arguments: [
            [0x63, 0x61, 0x66, 0xE9], [0x80, 0x41], [0xE2, 0x98], Array("ok ☕ ".utf8) + [0xC0, 0xAF, 0xFF],
        ] as [[UInt8]])
    func kept(_ bytes: [UInt8]) {
        let value = HeaderBytes.value(bytes)
        #expect(HeaderBytes.rawBytes(of: value) == bytes)
        let json = HeaderBytes.json(value)
        #expect(HeaderBytes.value(fromJSON: json).map(HeaderBytes.rawBytes) == bytes)
    }

    @Test("the Latin-1 café is written as its base64, and read back")
    func latin1() {
        let value = HeaderBytes.value([0x63, 0x61, 0x66, 0xE9])
        #expect(HeaderBytes.json(value) == .object([JSONMember(key: "base64", value: .string("Y2Fm6Q=="))]))
        #expect(HeaderBytes.value(fromJSON: .object([JSONMember(key: "base64", value: .string("*"))])) == nil)
        #expect(HeaderBytes.value(fromJSON: .string("Y2Fm6Q==")) == nil)
    }
}
