import EspressoMartini
import EspressoMartiniJansson
import Testing

/// `body_base64` (the body's bytes) and `multipart` (a `multipart/form-data` body part by part) in a
/// variant's `when` (doc/variants.md).
@Suite struct BodyBytesAndMultipartConditionsTests {
    static func request(contentType: String? = nil, body: [UInt8]?) -> RequestModel {
        let headers = contentType.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? []
        return RequestModel(
            Request(method: "POST", path: "/up", headers: RequestHeaders(headers), body: body),
            route: RoutePattern(parsing: "/up"), parser: JanssonParser())
    }

    /// A form with the text field `note` and the file `photo` (`a.png`, `image/png`, `content`), sent with
    /// `boundary`.
    static func form(boundary: String, note: String = "hello", content: [UInt8] = binary) -> RequestModel {
        var body = Array(
            """
            --\(boundary)\r
            Content-Disposition: form-data; name="note"\r
            \r
            \(note)\r
            --\(boundary)\r
            Content-Disposition: form-data; name="photo"; filename="a.png"\r
            Content-Type: image/png\r
            \r

            """.utf8)
        body += content + Array("\r\n--\(boundary)--\r\n".utf8)
        return request(contentType: "multipart/form-data; boundary=\(boundary)", body: body)
    }

    /// A NUL, bytes that are not UTF-8, and text.
    static let binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF, 0xFE, 0x41]
    static let binaryBase64 = Base64.encode(binary)

    @Test func bodyBase64HoldsForExactlyTheseBytes() {
        let conditions = VariantConditionsTests.conditions(#"{"body_base64": "\#(Self.binaryBase64)"}"#)
        #expect(conditions.holds(for: Self.request(body: Self.binary)))
        #expect(conditions.summary == "body_base64=" + Self.binaryBase64)
        var other = Self.binary
        other[5] = 0xFD
        #expect(!conditions.holds(for: Self.request(body: other)))
        #expect(
            conditions.firstMismatch(for: Self.request(body: other))
                == #"body_base64 is "iVBORwD9/kE=" (8 bytes), expected "iVBORwD//kE=" (8 bytes)"#)
        #expect(!conditions.holds(for: Self.request(body: Array(Self.binary.prefix(7)))))
        #expect(
            conditions.firstMismatch(for: Self.request(body: nil))
                == #"body_base64 is missing, expected "iVBORwD//kE=" (8 bytes)"#)
    }

    @Test(
        arguments: [
            (#"{"body_base64": {"equals": "AP8A"}}"#, true),
            (#"{"body_base64": "AP8"}"#, false),
            (#"{"body_base64": {"prefix": "AP8="}}"#, true),
            (#"{"body_base64": {"prefix": "AP4="}}"#, false),
            (#"{"body_base64": {"contains": "/wA="}}"#, true),
            (#"{"body_base64": {"contains": "AAA="}}"#, false),
            (#"{"body_base64": {"contains": ""}}"#, true),
            (#"{"body_base64": {"present": true}}"#, true),
            (#"{"body_base64": {"present": false}}"#, false),
        ])
    func bodyBase64TakesAMatcherOnBytes(_ when: String, _ holds: Bool) {
        #expect(VariantConditionsTests.conditions(when).holds(for: Self.request(body: [0x00, 0xFF, 0x00])) == holds)
    }

    @Test func aBodyTooLargeFailsBodyBase64AndMultipart() {
        let large = RequestModel(
            Request(method: "POST", path: "/up", body: [0], bodySize: 2), route: RoutePattern(parsing: "/up"),
            parser: JanssonParser())
        #expect(
            VariantConditionsTests.conditions(#"{"body_base64": "AA=="}"#).firstMismatch(for: large)
                == "body_base64 cannot be checked: the body is larger than 1 MiB")
        #expect(
            VariantConditionsTests.conditions(#"{"multipart": {"a": {"present": false}}}"#).firstMismatch(for: large)
                == #"multipart "a" cannot be checked: the body is larger than 1 MiB"#)
    }

    static let multipartWhen =
        #"{"multipart": {"note": "hello", "photo": {"filename": "a.png", "content_type": "image/png", "body_base64": "\#(binaryBase64)"}}}"#

    @Test func multipartMatchesThePartsWhateverTheBoundary() {
        let conditions = VariantConditionsTests.conditions(Self.multipartWhen)
        #expect(conditions.holds(for: Self.form(boundary: "----client-one-7MA4YWxkTrZu0gW")))
        #expect(conditions.holds(for: Self.form(boundary: "other")))
        #expect(
            conditions.summary
                == "multipart note=hello, multipart photo filename=a.png content_type=image/png body_base64=\(Self.binaryBase64)"
        )
    }

    @Test(
        arguments: [
            (form(boundary: "b", note: "bye"), #"multipart "note" is "bye", expected "hello""#),
            (
                form(boundary: "b", content: [0x00]),
                #"multipart "photo" body_base64 is "AA==" (1 byte), expected "iVBORwD//kE=" (8 bytes)"#
            ),
            (
                request(contentType: "text/plain", body: Array("note=hello".utf8)),
                #"multipart "note" cannot be checked: the body is not multipart/form-data"#
            ),
            (request(body: nil), #"multipart "note" cannot be checked: the request has no body"#),
        ])
    func multipartSaysWhichPartDiffers(_ request: RequestModel, _ mismatch: String) {
        #expect(VariantConditionsTests.conditions(Self.multipartWhen).firstMismatch(for: request) == mismatch)
    }

    @Test(
        arguments: [
            (#"{"multipart": {"note": {"prefix": "hel"}}}"#, nil),
            (#"{"multipart": {"note": {"filename": {"present": false}, "body": "hello"}}}"#, nil),
            (#"{"multipart": {"gone": {"present": false}}}"#, nil),
            (#"{"multipart": {"gone": "x"}}"#, #"multipart "gone" is missing, expected "x""#),
            (#"{"multipart": {"gone": {"filename": "x"}}}"#, #"multipart "gone" is missing"#),
            (
                #"{"multipart": {"photo": {"filename": {"regex": ".*\\.jpg"}}}}"#,
                #"multipart "photo" filename is "a.png", expected a value matching .*\.jpg"#
            ),
            (
                #"{"multipart": {"note": {"content_type": "text/plain"}}}"#,
                #"multipart "note" content_type is missing, expected "text/plain""#
            ),
            (
                #"{"multipart": {"photo": {"body": {"contains": "PNG"}}}}"#, nil
            ),
        ] as [(String, String?)])
    func aPartTakesMatchersOnItsFileNameTypeAndContent(_ when: String, _ mismatch: String?) {
        let request = Self.form(boundary: "b")
        #expect(VariantConditionsTests.conditions(when).firstMismatch(for: request) == mismatch)
    }

    @Test(
        arguments: [
            (
                #"{"body_base64": 1}"#,
                "c.json:1:26: error: a matcher is a string or an object with one of 'equals', 'contains', 'prefix', 'regex', 'present', found an integer; write \"1\" to compare as text"
            ),
            (
                #"{"body_base64": {"regex": "x"}}"#,
                #"c.json:1:27: error: 'body_base64' matches bytes, not text: it takes 'equals', 'contains', 'prefix' or 'present'; match the body's text with 'body': {"regex": …}"#
            ),
            (
                #"{"multipart": ["a"]}"#,
                #"c.json:1:24: error: 'multipart' must be an object of part names to matchers or parts, such as {"note": "text", "photo": {"filename": "a.png"}}, found an array"#
            ),
            (
                #"{"multipart": {"a": {"filname": "x"}}}"#,
                "c.json:1:31: error: unknown key 'filname' in a part; a part takes 'filename', 'content_type', 'body' and 'body_base64', or is one matcher on its text; did you mean 'filename'?"
            ),
            (
                #"{"multipart": {"a": {"filename": "x", "equals": "y"}}}"#,
                "c.json:1:48: error: unknown key 'equals' in a part; a part takes 'filename', 'content_type', 'body' and 'body_base64', or is one matcher on its text"
            ),
            (
                #"{"multipart": {"a": {"body_base64": "A"}}}"#,
                "c.json:1:46: error: 'body_base64' is not base64: the text ends one digit into a byte"
            ),
        ])
    func mistakesAreLoadErrors(_ when: String, _ message: String) {
        let (conditions, diagnostics) = VariantConditionsTests.compile(when)
        #expect(conditions == nil)
        #expect(diagnostics == [message])
    }

    @Test func aBase64MistakeIsReportedWhereItIsInTheFile() throws {
        try LoaderErrorCase(
            "a character that is no base64 digit",
            configuration: """
                {"variants": [{"when": {"body_base64": "AP8A",
                  "multipart": {"f": {"body_base64": {"equals": "AAAA\\nA*"}}}}, "responses": {}}]}
                """,
            ["\(LoaderErrorCase.at):2:57: error: 'body_base64' is not base64: '*' is not a base64 digit"]
        ).check()
    }
}
