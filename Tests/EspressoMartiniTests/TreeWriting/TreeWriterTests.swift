@testable import EspressoMartini
import EspressoMartiniJansson
import Foundation
import Testing

/// The tree writer (recording and `import openapi`): what it writes is an ordinary tree, proved by loading it
/// with the real loader without an error or a warning.
@Suite struct TreeWriterTests {
    /// Writes `drafts` into `$TMP/exchanges`, loads the result, and hands both to `body`.
    func written<T>(
        _ drafts: [ExchangeDraft], schema: String? = nil,
        _ body: (_ root: String, _ tree: ExchangeTree, _ written: [WrittenExchange]) throws -> T
    ) throws -> T {
        try withTemporaryFolder(FolderFixture()) { root in
            let writer = TreeWriter(requestsFolder: root + "/exchanges", schema: schema)
            let written = try drafts.map { try writer.write($0) }
            let (tree, diagnostics) = TreeLoader(parser: JanssonParser()).load(folder: root + "/exchanges")
            #expect(LoaderFixture.descriptions(diagnostics, root: root) == [])
            return try body(root + "/exchanges", try #require(tree), written)
        }
    }

    func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names in a folder, sorted; empty when it cannot be read.
    func listing(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    static let json = ResponseDraft.Body.bytes(Array(#"{"id": 1}"#.utf8), fileExtension: "json")

    @Test func oneResponseIsAnIndentedConfigurationAndABodyFileBesideIt() throws {
        let draft = ExchangeDraft(
            method: .get, path: [.literal("pets"), .parameter("petId")],
            answers: .responses(
                [
                    ResponseDraft(statusCode: 200, headers: [HTTPHeader(name: "X-Rate", value: "10")], body: Self.json)
                ], sequence: nil))
        try written([draft], schema: "file:///usr/share/espressomartini/schemas/exchange-configuration.schema.json") {
            folder, tree, written in
            #expect(written.map(\.folder) == ["pets/{petId}/GET"])
            #expect(written[0].bodyFiles == ["response-1.json"])
            #expect(
                text(folder + "/pets/{petId}/GET/configuration.json") == """
                    {
                      "$schema": "file:///usr/share/espressomartini/schemas/exchange-configuration.schema.json",
                      "status_code": 200,
                      "headers": {
                        "X-Rate": "10"
                      },
                      "response_file": "response-1.json"
                    }

                    """)
            #expect(text(folder + "/pets/{petId}/GET/response-1.json") == #"{"id": 1}"#)
            #expect(LoaderFixture.routes(tree) == ["GET /pets/{petId}"])
            #expect(listing(folder + "/pets/{petId}/GET") == ["configuration.json", "response-1.json"])
        }
    }

    /// Every segment that would read as something else matches only itself once written.
    @Test func segmentsThatWouldReadAsPatternsMethodsOrHiddenFoldersMatchOnlyThemselves() throws {
        let texts = [
            "*", "**", "{id}", ":id", "GET", "options", ".well-known", "50%", "a b", "__espressomartini", "café",
        ]
        let drafts = texts.map {
            ExchangeDraft(
                method: .get, path: [.literal($0), .literal("x")],
                answers: .responses([ResponseDraft(statusCode: 200, body: .inline(.string($0)))], sequence: nil))
        }
        try written(drafts) { _, tree, _ in
            #expect(tree.exchanges.count == texts.count)
            for text in texts {
                let match = tree.resolve(RequestPath("/" + text + "/x"), method: .get)
                guard case .exchange(let index) = match else {
                    Issue.record("/\(text)/x is not answered: \(match)")
                    continue
                }
                #expect(tree.exchanges[index].responses[0].content?.body == .inline(.string(text)))
            }
            #expect(tree.resolve(RequestPath("/other/x"), method: .get) == .notFound)
        }
    }

    @Test func variantsWithConditionsSequencesAndModes() throws {
        let when = JSONValue.object([
            JSONMember(key: "query", value: .object([JSONMember(key: "page", value: .string("2"))]))
        ])
        let draft = ExchangeDraft(
            method: .post, path: [.literal("jobs")],
            answers: .variants([
                VariantDraft(
                    when: when,
                    responses: [ResponseDraft(statusCode: 202), ResponseDraft(statusCode: 200, body: Self.json)],
                    sequence: .repeatLast),
                VariantDraft(
                    when: nil, responses: [ResponseDraft(statusCode: 201, body: .inline(.object([])))], sequence: .once),
            ]))
        try written([draft]) { folder, tree, _ in
            let exchange = try #require(tree.exchanges.first)
            #expect(exchange.variants.map(\.responses) == [0..<2, 2..<3])
            #expect(exchange.variants.map(\.sequence) == [.repeatLast, .once])
            #expect(exchange.variants[0].when == when)
            #expect(
                text(folder + "/jobs/POST/configuration.json") == """
                    {
                      "variants": [
                        {
                          "when": {
                            "query": {
                              "page": "2"
                            }
                          },
                          "responses": [
                            {
                              "status_code": 202
                            },
                            {
                              "status_code": 200,
                              "response_file": "response-1.json"
                            }
                          ],
                          "sequence": "repeat_last"
                        },
                        {
                          "responses": {
                            "status_code": 201,
                            "body": {}
                          },
                          "sequence": "once"
                        }
                      ]
                    }

                    """)
        }
    }

    @Test func aSequenceWithAndWithoutAMode() throws {
        let drafts = [
            ExchangeDraft(
                method: .get, path: [.literal("a")],
                answers: .responses([ResponseDraft(statusCode: 202), ResponseDraft(statusCode: 200)], sequence: nil)),
            ExchangeDraft(
                method: .get, path: [.literal("b")],
                answers: .responses([ResponseDraft(statusCode: 200)], sequence: .loop)),
        ]
        try written(drafts) { _, tree, written in
            #expect(tree.exchanges.map(\.responses.count) == [2, 1])
            #expect(tree.exchanges.map { $0.sequenceMode(variant: nil) } == [.repeatLast, .loop])
            #expect(
                written.map(\.configuration.compactText) == [
                    #"{"responses":[{"status_code":202},{"status_code":200}]}"#,
                    #"{"responses":{"status_code":200},"sequence":"loop"}"#,
                ])
        }
    }

    @Test func identicalBodiesShareAFileAndRepeatedHeadersBecomeAnArray() throws {
        let html = ResponseDraft.Body.bytes(Array("<p>hi</p>".utf8), fileExtension: "html")
        let draft = ExchangeDraft(
            method: .get, path: [],
            answers: .responses(
                [
                    ResponseDraft(
                        statusCode: 200,
                        headers: [
                            HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "set-cookie", value: "b=2"),
                        ], body: Self.json),
                    ResponseDraft(statusCode: 200, body: html),
                    ResponseDraft(
                        statusCode: 200,
                        headers: [
                            HTTPHeader(name: "Content-Length", value: "9"),
                            HTTPHeader(name: "Transfer-Encoding", value: "chunked"),
                        ], body: Self.json),
                ], sequence: .repeatLast))
        try written([draft]) { folder, tree, written in
            #expect(written[0].bodyFiles == ["response-1.json", "response-2.html"])
            let responses = try #require(tree.exchanges.first).responses
            #expect(
                responses.map { $0.content?.headers ?? [] } == [
                    [HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "Set-Cookie", value: "b=2")], [],
                    [],
                ])
            #expect(text(folder + "/GET/response-2.html") == "<p>hi</p>")
        }
    }

    @Test func bodiesOf204And304AreNotWritten() throws {
        let draft = ExchangeDraft(
            method: .delete, path: [.literal("x")],
            answers: .responses(
                [
                    ResponseDraft(statusCode: 204, body: Self.json),
                    ResponseDraft(statusCode: 304, body: .inline(.string("x"))),
                ], sequence: nil))
        try written([draft]) { folder, _, written in
            #expect(written[0].bodyFiles == [])
            #expect(listing(folder + "/x/DELETE") == ["configuration.json"])
        }
    }

    /// Recording appends to a sequence: the bodies already written stay, the new one gets the next number; a
    /// body streamed to disk is moved in. Files an earlier write named and this one does not are removed.
    @Test func rewritingAnExchangeKeepsNamedFilesAddsNewOnesAndRemovesTheRest() throws {
        try withTemporaryFolder(FolderFixture(files: ["streamed.bin": "streamed bytes"])) { root in
            let writer = TreeWriter(requestsFolder: root + "/exchanges")
            let folder = root + "/exchanges/log/GET"
            func draft(_ bodies: [ResponseDraft.Body]) -> ExchangeDraft {
                ExchangeDraft(
                    method: .get, path: [.literal("log")],
                    answers: .responses(bodies.map { ResponseDraft(statusCode: 200, body: $0) }, sequence: .repeatLast))
            }
            let first = try writer.write(
                draft([
                    .bytes(Array("one".utf8), fileExtension: "txt"), .bytes(Array("two".utf8), fileExtension: "txt"),
                ]))
            #expect(first.bodyFiles == ["response-1.txt", "response-2.txt"])
            let second = try writer.write(
                draft([.existingFile("response-2.txt"), .movedFile(path: root + "/streamed.bin", fileExtension: "bin")])
            )
            #expect(second.bodyFiles == ["response-2.txt", "response-3.bin"])
            #expect(listing(folder) == ["configuration.json", "response-2.txt", "response-3.bin"])
            #expect(text(folder + "/response-3.bin") == "streamed bytes")
            #expect(!FileManager.default.fileExists(atPath: root + "/streamed.bin"))
            let (tree, diagnostics) = TreeLoader(parser: JanssonParser()).load(folder: root + "/exchanges")
            #expect(diagnostics.all.isEmpty)
            #expect(
                tree?.exchanges.first?.responses.map { $0.content?.body } == [
                    ResponseBody.file(name: "response-2.txt", path: nil, size: 3),
                    .file(name: "response-3.bin", path: nil, size: 14),
                ])
        }
    }

    /// A file is replaced by a rename: a reader that opened the old one reads it whole, and no temporary file stays.
    @Test func filesAreReplacedWholeAndNoTemporaryFileStays() throws {
        try withTemporaryFolder(FolderFixture()) { root in
            let writer = TreeWriter(requestsFolder: root + "/exchanges")
            let big = ResponseDraft.Body.bytes(
                [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20), fileExtension: "txt")
            let draft = ExchangeDraft(
                method: .get, path: [.literal("x")],
                answers: .responses([ResponseDraft(statusCode: 200, body: big)], sequence: nil))
            try writer.write(draft)
            let old = try #require(FileHandle(forReadingAtPath: root + "/exchanges/x/GET/configuration.json"))
            var changed = draft
            changed.answers = .responses([ResponseDraft(statusCode: 201, body: big)], sequence: nil)
            try writer.write(changed)
            #expect(String(decoding: old.readDataToEndOfFile(), as: UTF8.self).contains("\"status_code\": 200"))
            #expect(text(root + "/exchanges/x/GET/configuration.json")?.contains("\"status_code\": 201") == true)
            #expect(listing(root + "/exchanges/x/GET") == ["configuration.json", "response-1.txt"])
        }
    }

    @Test func theSameDraftGivesTheSameBytes() throws {
        let draft = ExchangeDraft(
            method: .put, path: [.literal("a"), .parameter("id")],
            answers: .variants([
                VariantDraft(
                    when: .object([
                        JSONMember(
                            key: "headers", value: .object([JSONMember(key: "Prefer", value: .string("code=404"))]))
                    ]),
                    responses: [ResponseDraft(statusCode: 404, body: Self.json)]),
                VariantDraft(
                    when: nil,
                    responses: [ResponseDraft(statusCode: 200, body: .bytes(Array("ok".utf8), fileExtension: "txt"))]),
            ]))
        try withTemporaryFolder(FolderFixture()) { root in
            let writer = TreeWriter(requestsFolder: root + "/exchanges")
            try writer.write(draft)
            let before = ["configuration.json", "response-1.json", "response-2.txt"].map {
                text(root + "/exchanges/a/{id}/PUT/" + $0)
            }
            try writer.write(draft)
            let after = ["configuration.json", "response-1.json", "response-2.txt"].map {
                text(root + "/exchanges/a/{id}/PUT/" + $0)
            }
            #expect(before == after)
            #expect(!before.contains(nil))
        }
    }

    @Test(arguments: [
        (
            ExchangeDraft(
                method: .get, path: [.literal("a/b")],
                answers: .responses([ResponseDraft(statusCode: 200)], sequence: nil)),
            "a path segment holding '/' cannot be written as a folder"
        ),
        (
            ExchangeDraft(
                method: .get, path: [.literal("..")],
                answers: .responses([ResponseDraft(statusCode: 200)], sequence: nil)),
            "the path segment '..' cannot be written"
        ),
        (
            ExchangeDraft(
                method: .get, path: [.parameter("")],
                answers: .responses([ResponseDraft(statusCode: 200)], sequence: nil)),
            "the parameter name '' cannot be written"
        ),
        (
            ExchangeDraft(
                method: .get, path: [.parameter("a%b")],
                answers: .responses([ResponseDraft(statusCode: 200)], sequence: nil)),
            "cannot be written as a folder {a%b}"
        ),
        (
            ExchangeDraft(
                method: .get, path: [.literal(String(repeating: "x", count: 256))],
                answers: .responses([ResponseDraft(statusCode: 200)], sequence: nil)), "longer than a folder name"
        ),
        (
            ExchangeDraft(method: .get, path: [], answers: .responses([ResponseDraft(statusCode: 101)], sequence: nil)),
            "status 101 cannot be written"
        ),
        (
            ExchangeDraft(
                method: .get, path: [],
                answers: .responses(
                    [ResponseDraft(statusCode: 200, headers: [HTTPHeader(name: "Bad Name", value: "x")])], sequence: nil
                )), "'Bad Name' is not a valid header name"
        ),
        (
            ExchangeDraft(
                method: .get, path: [],
                answers: .responses(
                    [ResponseDraft(statusCode: 200, headers: [HTTPHeader(name: "X", value: "a\r\nb")])], sequence: nil)),
            "holds a line break"
        ),
    ])
    func whatCannotBeWrittenIsRefusedWithoutAConfiguration(_ draft: ExchangeDraft, _ message: String) throws {
        try withTemporaryFolder(FolderFixture()) { root in
            #expect(throws: TreeWritingError.self) { try TreeWriter(requestsFolder: root + "/exchanges").write(draft) }
            do {
                try TreeWriter(requestsFolder: root + "/exchanges").write(draft)
            } catch let error as TreeWritingError {
                #expect(error.message.contains(message), "\(error)")
            }
            let configurations = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix("configuration.json")
            }
            #expect(configurations == [])
        }
    }

    @Test func aFileWhereAFolderMustGoIsReported() throws {
        try withTemporaryFolder(FolderFixture(files: ["exchanges/api": "a file"])) { root in
            let draft = ExchangeDraft(
                method: .get, path: [.literal("api"), .literal("x")],
                answers: .responses([ResponseDraft(statusCode: 200)], sequence: nil))
            #expect(
                throws: TreeWritingError(
                    path: root + "/exchanges/api",
                    message: "exists and is not a folder; move it away or choose another requests folder")
            ) {
                try TreeWriter(requestsFolder: root + "/exchanges").write(draft)
            }
        }
    }

    @Test(arguments: [
        ("response-1.json", 1), ("response-12", 12), ("response-3.tar.gz", nil), ("response-.json", nil),
        ("response-2x.json", nil), ("page.json", nil),
    ])
    func bodyFileNumbers(_ name: String, _ number: Int?) {
        #expect(BodyFiles.number(of: name) == number)
    }
}

@Suite struct BodyFileExtensionTests {
    @Test(arguments: [
        ("application/json", "json"), ("Application/JSON; charset=utf-8", "json"), ("application/problem+json", "json"),
        ("text/plain", "txt"), ("text/plain; charset=utf-8", "txt"), ("text/html", "html"), ("text/csv", "csv"),
        ("text/x-anything", "txt"),
        ("application/xml", "xml"), ("text/xml", "xml"), ("application/atom+xml", "xml"), ("image/png", "png"),
        ("image/jpeg", "jpg"),
        ("application/yaml", "yaml"), ("application/x-yaml", "yaml"), ("application/javascript", "js"),
        ("text/javascript", "js"),
        ("application/pdf", "pdf"), ("application/octet-stream", "bin"), ("application/vnd.unknown", "bin"),
        ("", "bin"),
    ])
    func theExtensionComesFromTheContentType(_ contentType: String, _ fileExtension: String) {
        #expect(ContentType.fileExtension(for: contentType) == fileExtension)
    }

    /// A body written with the extension for its type is served with that type again (parameters aside).
    @Test(arguments: [
        "application/json", "text/html", "image/png", "application/xml", "text/csv", "application/pdf", "image/jpeg",
    ])
    func theExtensionReadsBackAsTheSameType(_ contentType: String) {
        #expect(
            ContentType.essence(ContentType.forFile("x." + ContentType.fileExtension(for: contentType))) == contentType)
    }
}
