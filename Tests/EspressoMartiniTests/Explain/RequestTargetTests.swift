import EspressoMartini
import Testing

/// `RequestTarget`: a target read as libmicrohttpd reads it; `RoutePattern.matches` and `isMoreSpecific`.
@Suite struct RequestTargetTests {
    @Test(arguments: [
        ("/users/42?page=2", "/users/42", "page=2"),
        ("/users/42", "/users/42", ""),
        ("/users/42?", "/users/42", ""),
        ("/a%20b/c+d?x=%20+y", "/a b/c+d", "x=%20+y"),
        ("/%2e%2E/x", "/../x", ""),
        ("/%zz/%4", "/%zz/%4", ""),
        ("/%C3%A9t%C3%A9", "/été", ""),
        ("/a%00b/c", "/a", ""),
        ("/a%3Fb?c?d", "/a?b", "c?d"),
        ("", "", ""),
    ])
    func decodesThePathAndKeepsTheQueryRaw(_ target: String, _ path: String, _ query: String) {
        let parsed = RequestTarget(target)
        #expect(parsed.path == path)
        #expect(parsed.rawQuery == query)
    }

    @Test(arguments: [
        ("/users/{id}", ["users", "7"], true),
        ("/users/{id}", ["users"], false),
        ("/users/{id}", ["users", "7", "x"], false),
        ("/users/*", ["users", "7"], true),
        ("/users/:id/posts", ["users", "7", "posts"], true),
        ("/users/:id/posts", ["users", "7", "post"], false),
        ("/files/**", ["files"], false),
        ("/files/**", ["files", "a"], true),
        ("/files/**", ["files", "a", "b"], true),
        ("/", [], true),
        ("/", ["x"], false),
        ("/caf\u{E9}", ["cafe\u{301}"], false),
    ])
    func routesMatchSegmentsOnTheirOwn(_ route: String, _ path: [String], _ expected: Bool) {
        #expect(RoutePattern(parsing: route).matches(RequestPath("/" + path.joined(separator: "/"))) == expected)
    }

    @Test(arguments: [
        ("/a/b", "/a/{id}", true),
        ("/a/{id}", "/a/b", false),
        ("/a/*", "/a/**", true),
        ("/a/**", "/a/*", false),
        ("/a/b/**", "/a/**", true),
        ("/a/{id}", "/a/:sku", false),
        ("/a/:sku", "/a/{id}", false),
        ("/{x}/b", "/a/{y}", false),
        ("/a/{y}", "/{x}/b", true),
    ])
    func aLiteralBeatsAOneSegmentWildcardWhichBeatsTheCatchAll(_ route: String, _ other: String, _ expected: Bool) {
        #expect(RoutePattern(parsing: route).isMoreSpecific(than: RoutePattern(parsing: other)) == expected)
    }
}
