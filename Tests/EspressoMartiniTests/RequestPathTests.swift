import EspressoMartini
import Testing

@Suite struct RequestPathTests {
    @Test(arguments: [
        ("/", [String]()),
        ("", []),
        ("//", []),
        ("/a", ["a"]),
        ("//a///b/", ["a", "b"]),
        ("/a/b/", ["a", "b"]),
        ("/é/日本", ["é", "日本"]),
        ("/a b/%2F", ["a b", "%2F"]),
    ])
    func splitsIntoNonEmptySegments(_ path: String, _ segments: [String]) {
        #expect(RequestPath(path).segments == segments)
        #expect(!RequestPath(path).hasDotSegment)
    }

    @Test(arguments: ["/.", "/..", "/a/./b", "/a/../b", "/a/..", "//..//", "../x"])
    func dotSegmentsAreFlagged(_ path: String) {
        #expect(RequestPath(path).hasDotSegment)
    }

    @Test(arguments: ["/...", "/.hidden", "/a..b", "/a./b", "/..a"])
    func namesMerelyContainingDotsAreNotDotSegments(_ path: String) {
        #expect(!RequestPath(path).hasDotSegment)
    }
}

/// The path as sent, split before each segment is decoded (`RequestPath(sent:)`).
@Suite struct SentRequestPathTests {
    static func segments(_ sent: String) -> [String] { RequestPath(sent: Array(sent.utf8)).segments }

    @Test func anEncodedSlashStaysInItsSegment() {
        #expect(
            Self.segments("/repos/o/r/git/refs/heads%2FfeatureA") == [
                "repos", "o", "r", "git", "refs", "heads/featureA",
            ])
        #expect(Self.segments("/a%2fb%2F/c") == ["a/b/", "c"])
        #expect(Self.segments("//a//%2F//") == ["a", "/"])
    }

    @Test func eachSegmentIsDecodedAsTheServerDecodes() {
        #expect(Self.segments("/a%20b/%zz/100%/%C3%A9+") == ["a b", "%zz", "100%", "é+"])
        #expect(Self.segments("/a/b%00c/d") == ["a", "b"], "the path ends at a decoded NUL")
        #expect(Self.segments("/a/%00") == ["a"])
    }

    @Test func decodedDotSegmentsAreFoundAndASlashMakesNone() {
        #expect(RequestPath(sent: Array("/a/%2e%2E/b%2F".utf8)).hasDotSegment)
        #expect(RequestPath(sent: Array("/a/.".utf8)).hasDotSegment)
        #expect(!RequestPath(sent: Array("/a/..%2F/b".utf8)).hasDotSegment)
        #expect(!RequestPath(sent: Array("/a/%2F..".utf8)).hasDotSegment)
    }

    @Test func withoutAnEncodedSlashItSplitsAsTheDecodedPathDoes() {
        for sent in ["/", "/a/b", "//x//y/", "/a%20b/c", "/%41/%2e", "/%FF/ok"] {
            let decoded = RequestTarget(sent).path
            #expect(RequestPath(sent: Array(sent.utf8)) == RequestPath(decoded), "\(sent)")
        }
    }
}
