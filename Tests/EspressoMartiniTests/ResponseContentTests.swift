@testable import EspressoMartini
import Testing

/// Content-Type derivation, header precedence and inline body bytes (doc/tree.md, doc/matching.md).
@Suite struct ResponseContentTests {
    @Test(arguments: [
        (ResponseBody.file(name: "data.json", path: "/x/data.json", size: 2), "application/json"),
        (.file(name: "logo.PNG", path: "/x/logo.PNG", size: 1), "image/png"),
        (.file(name: "photos/cat.jpeg", path: "/x/photos/cat.jpeg", size: 1), "image/jpeg"),
        (.file(name: "archive.tar.gz", path: "/x/archive.tar.gz", size: 1), "application/gzip"),
        (.file(name: "page.html", path: "/x/page.html", size: 1), "text/html; charset=utf-8"),
        (.file(name: "blob", path: "/x/blob", size: 1), "application/octet-stream"),
        (.file(name: "thing.unknownext", path: "/x/thing.unknownext", size: 1), "application/octet-stream"),
        (.file(name: ".json", path: "/x/.json", size: 1), "application/octet-stream"),
        (.file(name: "v1.2/blob", path: "/x/v1.2/blob", size: 1), "application/octet-stream"),
        (.inline(.string("hello")), "text/plain; charset=utf-8"),
        (.inline(.object([])), "application/json"),
        (.inline(.array([])), "application/json"),
        (.inline(.integer(3)), "application/json"),
        (.inline(.null), "application/json"),
    ])
    func bodyDerivesContentType(_ body: ResponseBody, _ type: String) {
        #expect(ResponseContent(body: body).derivedContentType == type)
    }

    @Test func noBodyDerivesNoContentType() {
        #expect(ResponseContent().derivedContentType == nil)
        #expect(ResponseContent().effectiveHeaders(global: []) == [])
    }

    struct PrecedenceCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let own: [HTTPHeader]
        let body: ResponseBody
        let global: [HTTPHeader]
        let expected: [HTTPHeader]
    }

    static func h(_ name: String, _ value: String) -> HTTPHeader { HTTPHeader(name: name, value: value) }

    static let precedence: [PrecedenceCase] = [
        .init(
            testDescription: "the exchange's own Content-Type beats the derived one, any case",
            own: [h("content-type", "text/x-own")], body: .inline(.object([])),
            global: [h("Content-Type", "text/x-global")],
            expected: [h("content-type", "text/x-own")]),
        .init(
            testDescription: "the derived Content-Type beats the global one",
            own: [], body: .inline(.string("hi")), global: [h("CONTENT-TYPE", "text/x-global")],
            expected: [h("Content-Type", "text/plain; charset=utf-8")]),
        .init(
            testDescription: "the global Content-Type applies when there is no body",
            own: [], body: .none, global: [h("Content-Type", "text/x-global")],
            expected: [h("Content-Type", "text/x-global")]),
        .init(
            testDescription: "global headers fill in names the exchange does not set",
            own: [h("X-Own", "1"), h("Cache-Control", "no-store")], body: .none,
            global: [h("cache-control", "max-age=60"), h("X-Global", "g")],
            expected: [h("X-Own", "1"), h("Cache-Control", "no-store"), h("X-Global", "g")]),
        .init(
            testDescription: "repeated own headers all stay and hide every global one of that name",
            own: [h("Set-Cookie", "a=1"), h("Set-Cookie", "b=2")],
            body: .file(name: "f.json", path: "/f.json", size: 1),
            global: [h("set-cookie", "g=1"), h("Set-Cookie", "g=2")],
            expected: [h("Set-Cookie", "a=1"), h("Set-Cookie", "b=2"), h("Content-Type", "application/json")]),
        .init(
            testDescription: "repeated global headers all apply when the exchange does not set the name",
            own: [], body: .none, global: [h("Vary", "Accept"), h("Vary", "Origin")],
            expected: [h("Vary", "Accept"), h("Vary", "Origin")]),
    ]

    @Test(arguments: precedence)
    func headersFollowPrecedence(_ testCase: PrecedenceCase) {
        let response = ResponseContent(headers: testCase.own, body: testCase.body)
        #expect(response.effectiveHeaders(global: testCase.global) == testCase.expected)
    }

    @Test func headerNamesCompareCaseInsensitively() {
        #expect([HTTPHeader(name: "X-Trace", value: "1")].contains(named: "x-TRACE"))
        #expect(![HTTPHeader(name: "X-Trace", value: "1")].contains(named: "X-Trace-Id"))
    }

    /// Loaded from a real configuration so the whole path from JSON text to bytes is covered.
    @Test(arguments: [
        (#""héllo \"quoted\"""#, #"héllo "quoted""#),
        (#"  { "b" : [1, 2.5, true, null] ,  "a": {"x": "y\n"} }"#, #"{"b":[1,2.5,true,null],"a":{"x":"y\n"}}"#),
        ("[ ]", "[]"),
        ("-42", "-42"),
        ("null", "null"),
        ("false", "false"),
        (#""""#, ""),
    ])
    func inlineBodyBytes(_ bodyJSON: String, _ sent: String) throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(
            FolderFixture(files: [
                LoaderErrorCase.configuration: #"{"body": "# + bodyJSON + "}"
            ]))
        #expect(diagnostics.all.isEmpty)
        let body = try #require(tree?.exchanges.first?.responses.first?.content?.body)
        #expect(body.inlineBytes == Array(sent.utf8))
    }

    @Test func onlyInlineBodiesHaveInlineBytes() {
        #expect(ResponseBody.none.inlineBytes == [])
        #expect(ResponseBody.file(name: "a.txt", path: "/a.txt", size: 3).inlineBytes == [])
    }
}
