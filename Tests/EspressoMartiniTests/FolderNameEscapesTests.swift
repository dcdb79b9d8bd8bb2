@testable import EspressoMartini
import Testing

/// doc/tree.md: a path-component folder name with percent-escapes matches the decoded segment literally, never as a
/// pattern or a method; the tree writer's spelling of any segment reads back as that one segment.
@Suite struct FolderNameEscapesTests {
    @Test(arguments: [
        ("%2A", "*"), ("%2a%2A", "**"), ("%7Bid%7D", "{id}"), ("%3Aid", ":id"), ("%47ET", "GET"), ("%25", "%"),
        ("caf%C3%A9", "café"), ("%2Ehidden", ".hidden"), ("a%20b", "a b"),
    ])
    func anEscapedNameIsTheDecodedLiteral(_ name: String, _ text: String) {
        #expect(RouteSegment(folderName: name) == .encodedLiteral(spelling: name))
        #expect(RouteSegment(folderName: name).literalText == text)
        #expect(RouteSegment(folderName: name).spelling == name)
        #expect(RouteSegment(folderName: name).literalText == text)
    }

    @Test(arguments: [
        ("a%2Fb", "holds %2F"), ("100%", "not followed by two hexadecimal digits"), ("%4", "not followed by two"),
        ("%zz", "not followed by two"), ("%FF", "not UTF-8"), ("%2E", "decodes to '.'"), ("%2E%2E", "decodes to '..'"),
        ("a%00", "%00"),
    ])
    func aNameNoSegmentCanHaveIsRefused(_ name: String, _ reason: String) throws {
        guard case .refused(let message)? = FolderNameEscapes.decode(name) else {
            Issue.record("\(name) was not refused")
            return
        }
        #expect(message.contains(reason), "\(message)")
        #expect(RouteSegment(folderName: name) == .literal(name))
    }

    @Test(arguments: [
        ("users", false, "users"), ("*", false, "%2A"), ("**", false, "%2A%2A"), ("***", false, "***"),
        ("{id}", false, "%7Bid%7D"),
        ("{}", false, "{}"), (":id", false, "%3Aid"), (":", false, ":"), ("GET", false, "%47ET"),
        ("POST", false, "%50OST"), ("delete", false, "delete"), ("get", true, "get"),
        ("Options", false, "Options"), (".well-known", false, "%2Ewell-known"), ("50%", false, "50%25"),
        ("a\tb", false, "a%09b"),
        ("__espressomartini", true, "%5F_espressomartini"), ("__espressomartini", false, "__espressomartini"),
        ("café", false, "café"),
        ("a b", false, "a b"), ("getter", false, "getter"),
    ])
    func theWriterSpellsEachSegmentSoThatItMatchesOnlyItself(_ text: String, _ atRoot: Bool, _ folder: String) {
        let name = FolderNameEscapes.folderName(forSegment: text, atRoot: atRoot)
        #expect(name == folder)
        let segment = RouteSegment(folderName: name)
        #expect(segment.literalText == text, "\(name) reads back as \(segment)")
        #expect(HTTPMethod(name: name)?.name != name, "never a method folder as the writer spells them")
        #expect(name.first != ".")
    }

    @Test(arguments: [("get", "%67et"), ("Delete", "%44elete"), ("options", "%6Fptions")])
    func aMethodNamedSegmentHasAnEscapedSpellingForWhereThePlainOneIsTaken(_ text: String, _ escaped: String) {
        #expect(FolderNameEscapes.escapedSpelling(ofMethodNamedSegment: text) == escaped)
        #expect(RouteSegment(folderName: escaped).literalText == text)
    }

    @Test(arguments: ["GET", "users", "getter"])
    func otherSegmentsHaveNoSuchSpelling(_ text: String) {
        #expect(FolderNameEscapes.escapedSpelling(ofMethodNamedSegment: text) == nil)
    }

    @Test(arguments: ["", ".", "..", "a/b", "a\u{0}b"])
    func aTextNoRequestSegmentCanBeHasAProblem(_ text: String) {
        #expect(FolderNameEscapes.problem(withSegment: text) != nil)
    }

    @Test func escapedFoldersServeOnlyTheirLiteralSegment() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(folders: [
                "exchanges/files/%2A/x/GET", "exchanges/files/{name}/x/GET", "exchanges/api/%47ET/POST",
                "exchanges/tags/%7Bid%7D/GET",
            ]))
        #expect(LoaderFixture.descriptions(diagnostics, root: root) == [])
        let loaded = try #require(tree)
        #expect(
            LoaderFixture.routes(loaded) == [
                "POST /api/%47ET", "GET /files/%2A/x", "GET /files/{name}/x", "GET /tags/%7Bid%7D",
            ])
        func answer(_ method: HTTPMethod, _ path: String) -> String? {
            guard case .exchange(let index) = loaded.resolve(RequestPath(path), method: method) else { return nil }
            return loaded.exchanges[index].folder
        }
        #expect(answer(.get, "/files/*/x") == "files/%2A/x/GET")
        #expect(answer(.get, "/files/a/x") == "files/{name}/x/GET")
        #expect(answer(.post, "/api/GET") == "api/%47ET/POST")
        #expect(answer(.get, "/api") == nil)
        #expect(answer(.get, "/tags/{id}") == "tags/%7Bid%7D/GET")
        #expect(answer(.get, "/tags/7") == nil)
    }

    @Test func anEscapedFolderAndItsPlainTwinClash() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(folders: ["exchanges/a%20b/GET", "exchanges/a b/GET"]))
        #expect(tree == nil)
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "$TMP/exchanges/a%20b/GET: error: GET /a%20b matches exactly the same requests as GET /a b in $TMP/exchanges/a b/GET; remove or rename one of the two folders"
            ])
    }

    @Test func aFolderNameNoSegmentCanHaveIsALoadError() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(folders: ["exchanges/a%2Fb/GET", "exchanges/ok/GET"]))
        #expect(tree == nil)
        #expect(
            LoaderFixture.descriptions(diagnostics, root: root) == [
                "$TMP/exchanges/a%2Fb: error: the folder name 'a%2Fb' holds %2F, a '/', which a folder cannot stand for; match a segment sent with %2F by a {name} or * folder"
            ])
    }
}
