@testable import EspressoMartini
import EspressoMartiniJansson
import Testing

/// The condition a recorded request's body is written with (`RecordedExchange.conditions`): text as `body`,
/// bytes no JSON text of the tree can hold as `body_base64`, a `multipart/form-data` body part by part; and
/// the tree loads and answers the request again after each.
@Suite struct RecordedBodyConditionsTests {
    static func exchange(contentType: String?, body: [UInt8]) -> RecordedExchange {
        RecordedExchange(
            method: .post, path: "/up", rawQuery: "",
            requestHeaders: contentType.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? [],
            requestBody: body, requestBodySize: body.count, statusCode: 204, responseHeaders: [],
            responseBodyFile: nil, contentDecoded: false)
    }

    static func written(contentType: String? = nil, _ body: [UInt8]) -> String {
        exchange(contentType: contentType, body: body).conditions(RecordingOptions(), parser: JanssonParser())?
            .compactText ?? "none"
    }

    static let form = BodyBytesAndMultipartConditionsTests.self

    @Test(
        arguments: [
            ([0x00, 0xFF, 0x41], nil, #"{"body_base64":"AP9B"}"#),
            (Array("a\u{0}b".utf8), "text/plain", #"{"body_base64":"YQBi"}"#),
            ([0xC3, 0x28], nil, #"{"body_base64":"wyg="}"#),
            (Array("café \u{FFFD}".utf8), "text/plain", #"{"body":"café \#u{FFFD}"}"#),
            (Array("a=%00&b=1".utf8), "application/x-www-form-urlencoded", #"{"body":"a=%00&b=1"}"#),
            (Array("a=%FF".utf8), "application/x-www-form-urlencoded", #"{"body":"a=%FF"}"#),
            (Array("a=%C3%A9".utf8), "application/x-www-form-urlencoded", #"{"form":{"a":"é"}}"#),
            (Array(#"{"a": "\u0000"}"#.utf8), "application/json", #"{"body":"{\"a\": \"\\u0000\"}"}"#),
        ] as [([UInt8], String?, String)])
    func aBodyIsTextWhenItCanBeElseItsBytesInBase64(_ body: [UInt8], _ contentType: String?, _ written: String) {
        #expect(Self.written(contentType: contentType, body) == written)
    }

    @Test func aMultipartBodyIsWrittenPartByPartAndMatchesTheFormSentWithAnotherBoundary() throws {
        let sent = Self.form.form(boundary: "client-boundary-1")
        let contentType = try #require(sent.headerValues("content-type").first)
        let body = try #require(sent.bodyBytes)
        let when = try #require(
            Self.exchange(contentType: contentType, body: body).conditions(RecordingOptions(), parser: JanssonParser()))
        #expect(
            when.compactText
                == #"{"multipart":{"note":"hello","photo":{"filename":"a.png","content_type":"image/png","body_base64":"\#(Self.form.binaryBase64)"}}}"#
        )
        var diagnostics = Diagnostics()
        let conditions = try #require(
            VariantConditions.compile(
                when, at: [], pathCaptures: [], file: "", map: JSONSourceMap(Array(when.compactText.utf8)),
                into: &diagnostics))
        #expect(conditions.holds(for: Self.form.form(boundary: "another-client-2")))
        #expect(!conditions.holds(for: Self.form.form(boundary: "another-client-2", content: [0x00])))
        #expect(!conditions.holds(for: Self.form.form(boundary: "another-client-2", note: "bye")))
    }

    @Test func aMultipartPartThatIsTextKeepsItsFileNameAndTypeAndABrokenFormIsItsBytes() {
        let body = Array(
            "--b\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nline\r\n--b--\r\n"
                .utf8)
        #expect(
            Self.written(contentType: "multipart/form-data; boundary=b", body)
                == #"{"multipart":{"doc":{"filename":"a.txt","content_type":"text/plain","body":"line"}}}"#)
        // Without its closing delimiter the body is no form: text, as it came.
        let cut = Array(body.dropLast(9))
        #expect(
            Self.written(contentType: "multipart/form-data; boundary=b", cut)
                == JSONValue.object([JSONMember(key: "body", value: .string(String(decoding: cut, as: UTF8.self)))])
                .compactText)
    }

    @Test func theTreeLoadsAndAnswersAfterEachBinaryOrMultipartRecording() throws {
        try withTemporaryFolder(FolderFixture(files: [:], folders: ["exchanges"])) { root in
            let recording = ExchangeRecorderTests.Recording(root: root)
            let sent = Self.form.form(boundary: "one")
            let bodies: [(String?, [UInt8])] = [
                (nil, [0x00, 0xFF, 0x00]), ("text/plain", Array("a\u{0}".utf8)),
                (sent.headerValues("content-type").first, sent.bodyBytes ?? []),
            ]
            for (contentType, body) in bodies {
                try recording.recorder.record(Self.exchange(contentType: contentType, body: body))
                let tree = try recording.tree()
                let exchange = try #require(tree.exchangeTree.exchanges.first)
                let request = RequestModel(
                    Request(
                        method: "POST", path: "/up",
                        headers: RequestHeaders(
                            contentType.map { [HTTPHeader(name: "Content-Type", value: $0)] } ?? []),
                        body: body),
                    route: exchange.route, parser: JanssonParser())
                #expect(exchange.variants.contains { $0.conditions.holds(for: request) })
            }
        }
    }
}
