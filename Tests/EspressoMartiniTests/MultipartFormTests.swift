import EspressoMartini
import Testing

/// `multipart/form-data` bodies (RFC 7578) read part by part, and the header parameters that name their
/// boundary, names and file names.
@Suite struct MultipartFormTests {
    typealias Part = MultipartForm.Part

    static let contentType = "multipart/form-data; boundary=XyZ"

    static func body(_ lines: [String], lineEnd: String = "\r\n") -> [UInt8] {
        Array(lines.joined(separator: lineEnd).utf8)
    }

    @Test func readsTextFieldsAndFilesWithTheirNamesTypesAndBytes() throws {
        // The part's content starts right after its empty line.
        var bytes = Self.body([
            "--XyZ",
            #"Content-Disposition: form-data; name="note""#,
            "",
            "hello",
            "--XyZ",
            #"content-disposition: form-data; name="photo"; filename="a b.png""#,
            "Content-Type: image/png",
            "",
            "",
        ])
        bytes += [0x89, 0x50, 0x00, 0xFF, 0x0D, 0x0A, 0x2D]  // a NUL, a byte that is not UTF-8, a CRLF, a dash
        bytes += Array("\r\n--XyZ--\r\n".utf8)
        let form = try #require(MultipartForm(parsing: bytes, contentType: Self.contentType))
        #expect(
            form.parts == [
                Part(name: "note", content: Array("hello".utf8)),
                Part(
                    name: "photo", filename: "a b.png", contentType: "image/png",
                    content: [0x89, 0x50, 0x00, 0xFF, 0x0D, 0x0A, 0x2D]),
            ])
        #expect(form.parts(named: "note").map(\.text) == ["hello"])
        #expect(form.parts(named: "none").isEmpty)
    }

    @Test func aPreambleAnEpilogueEmptyAndRepeatedPartsAndBareLineFeeds() throws {
        let body = Self.body(
            [
                "a preamble", "--XyZ", #"Content-Disposition: form-data; name="tag""#, "", "a", "--XyZ",
                #"Content-Disposition: form-data; name="tag""#, "", "", "--XyZ--", "an epilogue",
            ], lineEnd: "\n")
        let form = try #require(MultipartForm(parsing: body, contentType: Self.contentType))
        #expect(form.parts == [Part(name: "tag", content: Array("a".utf8)), Part(name: "tag", content: [])])
    }

    @Test func aLongerBoundaryInTheContentIsContent() throws {
        let body = Self.body([
            "--XyZ", #"Content-Disposition: form-data; name="a""#, "", "1", "--XyZW", "--XyZ--",
        ])
        let form = try #require(MultipartForm(parsing: body, contentType: Self.contentType))
        #expect(form.parts == [Part(name: "a", content: Array("1\r\n--XyZW".utf8))])
    }

    @Test(
        arguments: [
            ("multipart/form-data; boundary=\"XyZ\"", true),
            ("Multipart/Form-Data;boundary=XyZ;charset=utf-8", true),
            ("multipart/form-data; boundary=Other", false),
            ("multipart/form-data", false),
            ("multipart/mixed; boundary=XyZ", false),
            ("application/x-www-form-urlencoded", false),
        ])
    func theBoundaryComesFromTheContentType(_ contentType: String, _ parses: Bool) {
        let body = Self.body(["--XyZ", #"Content-Disposition: form-data; name="a""#, "", "1", "--XyZ--"])
        #expect((MultipartForm(parsing: body, contentType: contentType) != nil) == parses)
    }

    @Test(
        arguments: [
            ["--XyZ", #"Content-Disposition: form-data; name="a""#, "", "1"],  // no closing delimiter
            ["--XyZ", #"Content-Disposition: form-data; name="a""#, "1", "--XyZ--"],  // no empty line after the head
            ["--XyZ", #"Content-Disposition: attachment; name="a""#, "", "1", "--XyZ--"],
            ["--XyZ", "Content-Disposition: form-data", "", "1", "--XyZ--"],  // no name
            ["--XyZ", "Content-Type: text/plain", "", "1", "--XyZ--"],
            ["--XyZ", "no colon", "", "1", "--XyZ--"],
            ["just", "text"],
            [],
        ])
    func whatIsNoCompleteFormOfNamedPartsIsNone(_ lines: [String]) {
        #expect(MultipartForm(parsing: Self.body(lines), contentType: Self.contentType) == nil)
    }

    @Test(
        arguments: [
            ("form-data", "form-data", [(String, String)]()),
            (
                #" form-data ; name="a \"b\"; c" ;FileName=x.png"#, "form-data",
                [("name", #"a "b"; c"#), ("filename", "x.png")]
            ),
            ("text/plain; charset = utf-8; flag; =x", "text/plain", [("charset", "utf-8")]),
            (#"a; name="unclosed"#, "a", [("name", "unclosed")]),
            (#"a; name=""; next=1"#, "a", [("name", ""), ("next", "1")]),
        ])
    func headerParametersAreUnquotedAndTheirNamesInLowerCase(
        _ text: String, _ value: String, _ parameters: [(String, String)]
    ) {
        let parsed = HeaderParameters(parsing: text)
        #expect(parsed.value == value)
        #expect(parsed.parameters.map(\.name) == parameters.map(\.0))
        #expect(parsed.parameters.map(\.value) == parameters.map(\.1))
        if let first = parameters.first { #expect(parsed.first(named: first.0.uppercased()) == first.1) }
    }
}
