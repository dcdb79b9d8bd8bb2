@testable import EspressoMartini
import Testing

/// `RouteTrie.resolve` (doc/matching.md): each case builds a trie from `METHOD /pattern` routes and expects
/// `METHOD /pattern` of the answering exchange, `405 METHODS` or `404`.
@Suite struct RouteMatchingTests {
    struct MatchCase: Sendable, CustomTestStringConvertible {
        let routes: [String]
        let request: String
        let expected: String
        var testDescription: String { "\(request) → \(expected)" }

        init(_ routes: [String], _ request: String, _ expected: String) {
            self.routes = routes
            self.request = request
            self.expected = expected
        }
    }

    static func trie(_ routes: [String]) -> RouteTrie {
        builder(routes).freeze()
    }

    static func builder(_ routes: [String]) -> RouteTrie.Builder {
        var builder = RouteTrie.Builder()
        for (index, route) in routes.enumerated() {
            let (method, pattern) = split(route)
            let clash = builder.insert(
                RoutePattern(parsing: pattern), method: HTTPMethod(name: method)!, exchange: index)
            precondition(clash == nil, "fixture has two routes for \(route)")
        }
        return builder
    }

    static func split(_ line: String) -> (String, String) {
        let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
        return (parts[0], parts[1])
    }

    static func describe(_ match: RouteMatch, routes: [String]) -> String {
        switch match {
        case .exchange(let index): routes[index]
        case .methodNotAllowed(let methods): "405 " + methods.map(\.name).joined(separator: ", ")
        case .notFound: "404"
        }
    }

    static let precedence: [MatchCase] = [
        .init(["GET /a/b", "GET /a/{id}", "GET /a/**"], "GET /a/b", "GET /a/b"),
        .init(["GET /a/b", "GET /a/{id}", "GET /a/**"], "GET /a/c", "GET /a/{id}"),
        .init(["GET /a/b", "GET /a/*", "GET /a/**"], "GET /a/c", "GET /a/*"),
        .init(["GET /a/b", "GET /a/{id}", "GET /a/**"], "GET /a/c/d", "GET /a/**"),
        .init(["GET /a/:x/c", "GET /a/b/**"], "GET /a/b/c", "GET /a/b/**"),  // literal first at segment 2 decides
        .init(["GET /*/b", "GET /a/*"], "GET /a/b", "GET /a/*"),
        .init(["GET /", "GET /**"], "GET /", "GET /"),
        .init(["GET /", "GET /**"], "GET /x", "GET /**"),
    ]

    static let backtracking: [MatchCase] = [
        .init(["GET /a/b", "GET /a/*/c"], "GET /a/b/c", "GET /a/*/c"),
        .init(["GET /a/b/d", "GET /a/*/c"], "GET /a/b/c", "GET /a/*/c"),
        .init(["GET /a/b/c/d", "GET /a/*/c/e", "GET /a/**"], "GET /a/b/c/f", "GET /a/**"),
        .init(["GET /a/b/{x}/d", "GET /a/*/c/d"], "GET /a/b/c/d", "GET /a/b/{x}/d"),
        .init(["GET /a/b/x", "GET /*/b/c"], "GET /a/b/c", "GET /*/b/c"),
        .init(["GET /a/b/x", "GET /**"], "GET /a/b/c", "GET /**"),
    ]

    static let methodAware: [MatchCase] = [
        // The most specific route with an exchange for the method wins, else a less specific one.
        .init(["GET /users/me", "POST /users/{id}"], "POST /users/me", "POST /users/{id}"),
        .init(["GET /users/me", "POST /users/{id}"], "GET /users/me", "GET /users/me"),
        .init(["GET /users/me", "DELETE /users/**"], "DELETE /users/me", "DELETE /users/**"),
        .init(["GET /a/b/c", "PUT /a/*/c", "PATCH /a/**"], "PATCH /a/b/c", "PATCH /a/**"),
        .init(["GET /a/b/c", "PUT /a/*/c", "PATCH /a/**"], "PUT /a/b/c", "PUT /a/*/c"),
    ]

    static let segmentCounts: [MatchCase] = [
        .init(["GET /files/**"], "GET /files", "404"),  // ** needs at least one segment
        .init(["GET /files/**"], "GET /files/a", "GET /files/**"),
        .init(["GET /files/**"], "GET /files/a/b/c/d", "GET /files/**"),
        .init(["GET /**"], "GET /", "404"),
        .init(["GET /x/*"], "GET /x", "404"),
        .init(["GET /x/*"], "GET /x/1", "GET /x/*"),
        .init(["GET /x/*"], "GET /x/1/2", "404"),
        .init(["GET /x/{id}/y"], "GET /x/1/y", "GET /x/{id}/y"),
        .init(["GET /x/{id}/y"], "GET /x/y", "404"),
        .init(["GET /a"], "GET /a/b", "404"),
        .init(["GET /a/b"], "GET /a", "404"),
        .init(["GET /A"], "GET /a", "404"),  // path segments are case-sensitive
        .init([], "GET /", "404"),
    ]

    static let notAllowed: [MatchCase] = [
        .init(["POST /a"], "GET /a", "405 POST"),
        .init(["GET /a", "DELETE /a"], "PUT /a", "405 GET, HEAD, DELETE"),
        // The union over every route that matches the path, in HTTPMethod order.
        .init(["GET /a/b", "POST /a/*", "PATCH /a/**", "OPTIONS /x/b"], "PUT /a/b", "405 GET, HEAD, POST, PATCH"),
        .init(["HEAD /a", "TRACE /a"], "GET /a", "405 HEAD, TRACE"),
        .init(["CONNECT /**", "OPTIONS /*"], "GET /z", "405 OPTIONS, CONNECT"),
        .init(["POST /a/b"], "POST /a", "404"),
    ]

    static let head: [MatchCase] = [
        .init(["GET /a"], "HEAD /a", "GET /a"),
        .init(["GET /a", "HEAD /a"], "HEAD /a", "HEAD /a"),
        // A HEAD exchange anywhere that matches beats the GET of a more specific route.
        .init(["GET /a/b", "HEAD /a/*"], "HEAD /a/b", "HEAD /a/*"),
        .init(["GET /a/*", "HEAD /x"], "HEAD /a/b", "GET /a/*"),
        .init(["POST /a"], "HEAD /a", "405 POST"),
        .init(["HEAD /a"], "GET /a", "405 HEAD"),
    ]

    @Test(arguments: precedence + backtracking + methodAware + segmentCounts + notAllowed + head)
    func resolves(_ testCase: MatchCase) {
        let trie = Self.trie(testCase.routes)
        let (method, path) = Self.split(testCase.request)
        let match = trie.resolve(RequestPath(path), method: HTTPMethod(name: method)!)
        #expect(Self.describe(match, routes: testCase.routes) == testCase.expected)
    }

    @Test(arguments: [
        ("/a/b", ["GET", "HEAD", "POST", "PATCH"]),
        ("/a/zzz", ["POST", "PATCH"]),
        ("/a/b/c", ["PATCH"]),
        ("/a", []),
        ("/x/b", ["OPTIONS"]),
        ("/nothing", []),
    ])
    func allowedMethodsAreTheUnionOfMatchingRoutes(_ path: String, _ methods: [String]) {
        let trie = Self.trie(["GET /a/b", "POST /a/*", "PATCH /a/**", "OPTIONS /x/b"])
        #expect(trie.allowedMethods(RequestPath(path)).map(\.name) == methods)
    }

    @Test(arguments: ["//a///b/", "/a/b/", "a/b", "/a//b"])
    func emptySegmentsAreIgnoredWhenResolvingATree(_ path: String) throws {
        let (tree, _, _) = try LoaderFixture.load(FolderFixture(folders: ["exchanges/a/GET", "exchanges/a/b/GET"]))
        let loaded = try #require(tree)
        guard case .exchange(let index) = loaded.resolve(RequestPath(path), method: .get) else {
            Issue.record("\(path) did not resolve to an exchange")
            return
        }
        #expect(loaded.exchanges[index].folder == "a/b/GET")
    }

    /// Thousands of literal folders, many sharing a name under different parents and many under one
    /// parent: the literal table grows several times and is trimmed, and still finds every route and
    /// nothing else, names compared byte for byte (`é` precomposed or not, a prefix, a longer name).
    @Test func manyLiteralRoutesAreEachFoundAfterGrowingAndTrimming() {
        let routes = (0..<3000).map { "GET /s\($0 % 50)/item\($0)/é" }
        let trie = Self.trie(routes)
        for (index, route) in routes.enumerated() where index % 7 == 0 {
            let (_, path) = Self.split(route)
            #expect(Self.describe(trie.resolve(RequestPath(path), method: .get), routes: routes) == route)
        }
        for path in [
            "/s1/item1/e\u{301}", "/s1/item1/é2", "/s1/item", "/s1/item10001/é", "/s50/item50/é", "/s1/item2/é",
        ] {
            #expect(Self.describe(trie.resolve(RequestPath(path), method: .get), routes: routes) == "404", "\(path)")
        }
    }

    @Test func requestMethodsAreCaseSensitiveButFolderNamesAreNot() {
        #expect(HTTPMethod(requestMethod: "GET") == .get)
        #expect(HTTPMethod(requestMethod: "get") == nil)
        #expect(HTTPMethod(requestMethod: "PROPFIND") == nil)
        #expect(HTTPMethod(name: "pAtCh") == .patch)
        #expect(HTTPMethod(name: "propfind") == nil)
    }

    @Test func insertingTheSameMethodAtAnEquivalentPatternReportsTheFirstExchange() {
        var builder = RouteTrie.Builder()
        #expect(builder.insert(RoutePattern(parsing: "/u/{id}"), method: .get, exchange: 0) == nil)
        #expect(builder.insert(RoutePattern(parsing: "/u/{id}"), method: .post, exchange: 1) == nil)
        #expect(builder.insert(RoutePattern(parsing: "/u/:name"), method: .get, exchange: 2) == 0)
        #expect(builder.insert(RoutePattern(parsing: "/u/*"), method: .post, exchange: 3) == 1)
        #expect(builder.insert(RoutePattern(parsing: "/u/**"), method: .get, exchange: 4) == nil)
        #expect(builder.insert(RoutePattern(parsing: "/u/x"), method: .get, exchange: 5) == nil)
        let node = builder.node(for: RoutePattern(parsing: "/u/x"))
        #expect(builder.insert(method: .get, exchange: 6, at: node) == 5)
        #expect(builder.insert(method: .put, exchange: 7, at: node) == nil)
    }

    /// Literal tables of 12 and 24 edges fill their trimmed table to three quarters; 13 and 25 need the
    /// next size. Every route is found, and a name one past the last is not.
    @Test(arguments: [1, 12, 13, 24, 25, 100])
    func literalTablesTrimmedAtTheirSizeBoundariesFindEveryRoute(_ count: Int) {
        let routes = (0..<count).map { "GET /n\($0)" }
        let trie = Self.trie(routes)
        for route in routes {
            let (_, path) = Self.split(route)
            #expect(Self.describe(trie.resolve(RequestPath(path), method: .get), routes: routes) == route)
        }
        #expect(trie.resolve(RequestPath("/n\(count)"), method: .get) == .notFound)
    }

    /// One node with an exchange for every method: the frozen method table has a slot for each
    /// `HTTPMethod`, and each method finds its own exchange, wherever it is in the table.
    @Test func aFrozenMethodTableCoversEveryMethod() {
        let routes = HTTPMethod.allCases.map { "\($0.name) /all" } + ["PATCH /patch-only"]
        let trie = Self.trie(routes)
        #expect(trie.methodSlots.count == 2 * HTTPMethod.allCases.count)
        for method in HTTPMethod.allCases {
            #expect(
                Self.describe(trie.resolve(RequestPath("/all"), method: method), routes: routes)
                    == "\(method.name) /all")
            let expected = method == .patch ? "PATCH /patch-only" : "405 PATCH"
            #expect(Self.describe(trie.resolve(RequestPath("/patch-only"), method: method), routes: routes) == expected)
        }
    }

    /// A frozen trie is a value of its own: routes the builder takes afterwards reach only the next freeze.
    @Test func aFrozenTrieDoesNotSeeLaterInserts() {
        var builder = Self.builder(["GET /a"])
        let first = builder.freeze()
        #expect(builder.insert(RoutePattern(parsing: "/b"), method: .get, exchange: 1) == nil)
        #expect(builder.insert(RoutePattern(parsing: "/a"), method: .post, exchange: 2) == nil)
        let second = builder.freeze()
        #expect(first.resolve(RequestPath("/b"), method: .get) == .notFound)
        #expect(first.resolve(RequestPath("/a"), method: .post) == .methodNotAllowed([.get, .head]))
        #expect(second.resolve(RequestPath("/b"), method: .get) == .exchange(1))
        #expect(second.resolve(RequestPath("/a"), method: .post) == .exchange(2))
    }
}
