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
