@testable import EspressoMartini
import Testing

/// How folders become exchanges (doc/tree.md): which folders are method folders, what the route is, and the order.
@Suite struct TreeShapeTests {
    struct ShapeCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let fixture: FolderFixture
        /// `METHOD /route <- folder relative to the requests folder`, in tree order.
        let expected: [String]

        init(_ name: String, folders: [String] = [], files: [String: String] = [:], _ expected: [String]) {
            self.testDescription = name
            self.fixture = FolderFixture(
                files: Dictionary(uniqueKeysWithValues: files.map { ("exchanges/" + $0.key, $0.value) }),
                folders: folders.map { "exchanges/" + $0 }
            )
            self.expected = expected
        }
    }

    static let shapes: [ShapeCase] = [
        .init(
            "a method folder below path components", folders: ["api/v1/user/POST"],
            [
                "POST /api/v1/user <- api/v1/user/POST"
            ]),
        .init(
            "a method-named folder with a method folder inside is a path component", folders: ["api/options/GET"],
            [
                "GET /api/options <- api/options/GET"
            ]),
        .init(
            "a lowercase method folder with no sub-folder", folders: ["api/user/delete"],
            [
                "DELETE /api/user <- api/user/delete"
            ]),
        .init(
            "a method folder holding configuration.json and sub-folders is still a method folder",
            folders: ["api/items/POST/sub/GET"], files: ["api/items/POST/configuration.json": "{}"],
            [
                "POST /api/items <- api/items/POST"
            ]),
        .init(
            "a method-named folder with sub-folders and no configuration.json is a path component",
            folders: ["api/get/things/GET"],
            [
                "GET /api/get/things <- api/get/things/GET"
            ]),
        .init(
            "a method folder directly under the root is the route /", folders: ["GET", "put"],
            [
                "GET / <- GET", "PUT / <- put",
            ]),
        .init(
            "names starting with a dot are ignored",
            folders: [".git/GET", "api/.hidden/POST", "reports/GET/.cache", "api/GET"],
            [
                "GET /api <- api/GET", "GET /reports <- reports/GET",
            ]),
        .init(
            "files outside method folders are ignored",
            folders: ["api/GET"], files: ["README.md": "# notes", "api/notes.txt": "x", "api/GET.json": "{}"],
            [
                "GET /api <- api/GET"
            ]),
        .init("a folder that is neither a method nor has exchanges gives nothing", folders: ["empty/deeper"], []),
        .init(
            "sorted by route byte-wise, then by method",
            folders: [
                "a/{id}/GET", "a/b/GET", "a/*/x/GET", "a/POST", "a/GET", "a/DELETE", "B/GET", "GET", "a/b/c/GET",
            ],
            [
                "GET / <- GET",
                "GET /B <- B/GET",
                "DELETE /a <- a/DELETE",
                "GET /a <- a/GET",
                "POST /a <- a/POST",
                "GET /a/*/x <- a/*/x/GET",
                "GET /a/b <- a/b/GET",
                "GET /a/b/c <- a/b/c/GET",
                "GET /a/{id} <- a/{id}/GET",
            ]),
        .init(
            "every method name is recognised in any case",
            folders: [
                "m/Get", "m/hEaD", "m/post", "m/PUT", "m/patch", "m/Delete", "m/options", "m/trace", "m/connect",
            ],
            [
                "CONNECT /m <- m/connect", "DELETE /m <- m/Delete", "GET /m <- m/Get", "HEAD /m <- m/hEaD",
                "OPTIONS /m <- m/options",
                "PATCH /m <- m/patch", "POST /m <- m/post", "PUT /m <- m/PUT", "TRACE /m <- m/trace",
            ]),
    ]

    @Test(arguments: shapes)
    func foldersBecomeTheseExchanges(_ shape: ShapeCase) throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(shape.fixture)
        #expect(LoaderFixture.descriptions(diagnostics, root: root) == [])
        let exchanges = tree?.exchanges.map { "\($0.method.name) \($0.route) <- \($0.folder)" }
        #expect(exchanges == shape.expected)
    }

    @Test func anExchangeWithoutConfigurationIsOne200ResponseWithNoBody() throws {
        let (tree, _, _) = try LoaderFixture.load(FolderFixture(folders: ["exchanges/ping/GET"]))
        let responses = try #require(tree?.exchanges.first).responses
        #expect(responses == [ConfiguredResponse(statusCode: 200, headers: [], body: .none, delay: nil)])
    }

    @Test func specialFolderNamesBecomeTheirRouteSegments() throws {
        let (tree, _, _) = try LoaderFixture.load(
            FolderFixture(folders: [
                "exchanges/users/{id}/GET", "exchanges/teams/:team/members/GET", "exchanges/any/*/GET",
                "exchanges/files/**/GET",
            ]))
        let segments = try #require(tree).exchanges.map(\.route.segments)
        #expect(
            segments == [
                [.literal("any"), .wildcard],
                [.literal("files"), .catchAll],
                [.literal("teams"), .parameter(spelling: ":team"), .literal("members")],
                [.literal("users"), .parameter(spelling: "{id}")],
            ])
    }

    @Test(arguments: [
        ("users", RouteSegment.literal("users")),
        ("*", .wildcard),
        ("**", .catchAll),
        ("***", .literal("***")),
        ("{id}", .parameter(spelling: "{id}")),
        (":id", .parameter(spelling: ":id")),
        ("{}", .literal("{}")),
        (":", .literal(":")),
        ("{id", .literal("{id")),
        ("a*", .literal("a*")),
    ])
    func folderNameParsesToSegment(_ name: String, _ segment: RouteSegment) {
        #expect(RouteSegment(folderName: name) == segment)
        #expect(RouteSegment(folderName: name).spelling == name)
    }

    @Test func routeDescriptionsSpellTheFolders() {
        #expect(RoutePattern([]).description == "/")
        #expect(RoutePattern(parsing: "/api/*/users/{id}/:tab/**").description == "/api/*/users/{id}/:tab/**")
        // {id}, :id and * match the same requests; literals do not.
        #expect(RoutePattern(parsing: "/u/{id}").matchesSameRequests(as: RoutePattern(parsing: "/u/*")))
        #expect(RoutePattern(parsing: "/u/:name").matchesSameRequests(as: RoutePattern(parsing: "/u/{id}")))
        #expect(!RoutePattern(parsing: "/u/x").matchesSameRequests(as: RoutePattern(parsing: "/u/*")))
        #expect(!RoutePattern(parsing: "/u/**").matchesSameRequests(as: RoutePattern(parsing: "/u/*")))
        #expect(!RoutePattern(parsing: "/u/*/x").matchesSameRequests(as: RoutePattern(parsing: "/u/*")))
    }

    @Test func aFullResponseSequenceIsReadInFileOrder() throws {
        let (tree, diagnostics, _) = try LoaderFixture.load(
            FolderFixture(files: [
                "exchanges/jobs/POST/configuration.json": """
                [
                  {"status_code": 202, "response_file": "pending.json", "delay": 0.25},
                  {"status_code": 200, "headers": {"Set-Cookie": ["a=1", "b=2"], "X-Id": "7"}, "body": "done", "delay": 2},
                  {"delay": {"max": 1.5, "min": 0}},
                  {}
                ]
                """,
                "exchanges/jobs/POST/pending.json": #"{"state":"pending"}"#,
            ]))
        #expect(diagnostics.all.isEmpty)
        let exchange = try #require(tree?.exchanges.first)
        #expect(
            exchange.responses == [
                ConfiguredResponse(
                    statusCode: 202, body: .file(name: "pending.json", path: nil, size: 19), delay: 0.25),
                ConfiguredResponse(
                    statusCode: 200,
                    headers: [
                        HTTPHeader(name: "Set-Cookie", value: "a=1"), HTTPHeader(name: "Set-Cookie", value: "b=2"),
                        HTTPHeader(name: "X-Id", value: "7"),
                    ],
                    body: .inline(.string("done")),
                    delay: 2
                ),
                ConfiguredResponse(delay: .uniform(min: 0, max: 1.5)),
                ConfiguredResponse(),
            ])
    }

    @Test func aResponseFileMayUseASubFolderOrALinkThatStaysInside() throws {
        let (tree, diagnostics, root) = try LoaderFixture.load(
            FolderFixture(
                files: [
                    "exchanges/a/GET/configuration.json":
                        #"[{"response_file": "data/one.json"}, {"response_file": "../../shared/two.txt"}, {"response_file": "link.txt"}]"#,
                    "exchanges/a/GET/data/one.json": "1",
                    "exchanges/shared/two.txt": "22",
                ],
                symlinks: ["exchanges/a/GET/link.txt": "../../shared/two.txt"]
            ))
        #expect(diagnostics.all.isEmpty)
        let bodies = try #require(tree?.exchanges.first).responses.map { $0.content?.body }
        #expect(
            bodies == [
                ResponseBody.file(name: "data/one.json", path: root + "/exchanges/a/GET/data/one.json", size: 1),
                .file(name: "../../shared/two.txt", path: root + "/exchanges/shared/two.txt", size: 2),
                .file(name: "link.txt", path: root + "/exchanges/shared/two.txt", size: 2),
            ])
    }

    @Test func theCounterKeyIsTheMethodAndWhatTheRouteMatches() {
        let byParameter = Exchange(
            method: .get, route: RoutePattern(parsing: "/u/{id}"), methodFolderName: "GET", responses: [])
        let byWildcard = Exchange(
            method: .get, route: RoutePattern(parsing: "/u/*"), methodFolderName: "GET", responses: [])
        let byPost = Exchange(
            method: .post, route: RoutePattern(parsing: "/u/*"), methodFolderName: "POST", responses: [])
        #expect(byParameter.key == byWildcard.key)
        #expect(byWildcard.key != byPost.key)
    }
}
