import EspressoMartiniClient
import Foundation
import Testing

/// Exchanges written as a tree: the folders, `configuration.json` and the body files, byte for byte.
@Suite struct TreeWritingTests {
    struct Order: Encodable {
        let orderID: String
        let placedAt: Date
    }

    /// An encoder unlike the default one in every way that shows in its bytes.
    static let customEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let order = Order(orderID: "A-42", placedAt: Date(timeIntervalSince1970: 1_700_000_000))

    @Test func eachKindIsWrittenByteForByte() throws {
        let folder = try Fixture.temporaryFolder()
        defer { Fixture.remove(folder) }
        let image = folder.appendingPathComponent("avatar.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]).write(to: image)
        let tree = folder.appendingPathComponent("network-exchanges")

        try NetworkExchange.writeTree(
            [
                NetworkExchange(request: .init(method: .get, path: "text"), response: .init(kind: .string("héllo\n"))),
                NetworkExchange(
                    request: .init(method: .get, path: "bytes"), response: .init(kind: .data(Data([0, 1, 2])))),
                NetworkExchange(
                    request: .init(method: .post, path: "api/v1/orders"),
                    response: .init(status: 201, kind: .json(Self.order, encoder: Self.customEncoder))),
                NetworkExchange(
                    request: .init(method: .get, path: "avatar"),
                    responses: [
                        .init(kind: .fileContent(pathToFile: image.path)),
                        .init(kind: .fileContent(pathToFile: image.path)),
                    ]),
                NetworkExchange(
                    request: .init(method: .delete, path: "api/v1/orders/{id}"), response: .init(status: 204)),
            ], into: tree)

        #expect(
            try Fixture.text(tree.appendingPathComponent("text/GET/configuration.json")) == """
                {
                  "body": "héllo\\n",
                  "status_code": 200
                }

                """)
        #expect(
            try Fixture.text(tree.appendingPathComponent("bytes/GET/configuration.json")) == """
                {
                  "response_file": "response.bin",
                  "status_code": 200
                }

                """)
        #expect(try Data(contentsOf: tree.appendingPathComponent("bytes/GET/response.bin")) == Data([0, 1, 2]))
        #expect(
            try Fixture.text(tree.appendingPathComponent("api/v1/orders/POST/configuration.json")) == """
                {
                  "response_file": "response.json",
                  "status_code": 201
                }

                """)
        #expect(
            try Data(contentsOf: tree.appendingPathComponent("api/v1/orders/POST/response.json"))
                == Self.customEncoder.encode(Self.order))
        #expect(
            try Fixture.text(tree.appendingPathComponent("api/v1/orders/POST/response.json")) == """
                {
                  "order_id" : "A-42",
                  "placed_at" : "2023-11-14T22:13:20Z"
                }
                """)
        #expect(
            try Fixture.text(tree.appendingPathComponent("avatar/GET/configuration.json")) == """
                [
                  {
                    "response_file": "avatar.png",
                    "status_code": 200
                  },
                  {
                    "response_file": "avatar-2.png",
                    "status_code": 200
                  }
                ]

                """)
        for name in ["avatar.png", "avatar-2.png"] {
            #expect(try Data(contentsOf: tree.appendingPathComponent("avatar/GET/\(name)")) == Data(contentsOf: image))
        }
        #expect(
            try Fixture.text(tree.appendingPathComponent("api/v1/orders/{id}/DELETE/configuration.json")) == """
                {
                  "status_code": 204
                }

                """)
    }

    @Test func aFileNamedLikeTheConfigurationOrHiddenGetsAnotherName() throws {
        let folder = try Fixture.temporaryFolder()
        defer { Fixture.remove(folder) }
        for name in ["configuration.json", ".secret"] {
            try Data(name.utf8).write(to: folder.appendingPathComponent(name))
        }
        let tree = folder.appendingPathComponent("tree")
        try NetworkExchange.writeTree(
            [
                NetworkExchange(
                    request: .init(method: .get, path: "files"),
                    responses: [
                        .init(kind: .fileContent(pathToFile: folder.appendingPathComponent("configuration.json").path)),
                        .init(kind: .fileContent(pathToFile: folder.appendingPathComponent(".secret").path)),
                    ])
            ], into: tree)
        let method = tree.appendingPathComponent("files/GET")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: method.path).sorted()
                == ["configuration-2.json", "configuration.json", "file.secret"])
        #expect(try Fixture.text(method.appendingPathComponent("configuration-2.json")) == "configuration.json")
    }

    @Test func everyKeyMapsOntoTheConfiguration() throws {
        let exchange = NetworkExchange(
            request: .init(method: .get, path: ["api", "*", "orders", "{id}"]),
            responses: [
                .init(
                    status: 202, headers: ["Set-Cookie": "a=1", "Set-Cookie": "b=2", "Retry-After": "1"],
                    delay: .uniform(min: 0.1, max: 0.5)),
                .init(fault: .connectionReset),
                .init(
                    headers: ["Location": "/orders/{{request.pathParameters.id}}"], kind: .string("{{call}}"),
                    template: true),
                .init(delay: .lognormal(median: 0.2, sigma: 0.5, max: 5), fault: .truncatedBody),
                .init(
                    kind: .stream(
                        [
                            .event(data: "Hel", event: "token", id: "1", after: 0.2), .pause(1),
                            .event(comment: "alive"),
                        ],
                        repeats: true)),
            ], sequence: .loop)
        #expect(
            try exchange.inlineConfiguration().jsonText() == """
                {"responses":[{"delay":{"max":0.5,"min":0.1},"headers":{"Retry-After":"1","Set-Cookie":["a=1","b=2"]},\
                "status_code":202},{"fault":"connection_reset","status_code":200},\
                {"body":"{{call}}","headers":{"Location":"/orders/{{request.pathParameters.id}}"},"status_code":200,\
                "template":true},{"delay":{"distribution":"lognormal","max":5.0,"median":0.2,"sigma":0.5},\
                "fault":"truncated_body","status_code":200},{"status_code":200,"stream":[{"data":"Hel","delay":0.2,\
                "event":"token","id":"1"},{"delay":1.0},{"comment":"alive"}],"stream_repeat":true}],"sequence":"loop"}
                """)
        let raw = NetworkExchange.Response(kind: .stream([.body(["progress": 10]), .body("done", after: 0.1)]))
        #expect(
            try NetworkExchange(request: .init(method: .get, path: "feed"), response: raw).inlineConfiguration()
                == ["status_code": 200, "stream": [["body": ["progress": 10]], ["body": "done", "delay": 0.1]]])
        let once = NetworkExchange(request: .init(method: .get, path: "job"), responses: [.init()], sequence: .once)
        #expect(try once.inlineConfiguration() == ["responses": ["status_code": 200], "sequence": "once"])
    }

    @Test func variantsCarryTheirConditionsAndSequences() throws {
        let exchange = NetworkExchange(
            request: .init(method: .post, path: "api/v1/login"),
            variants: [
                .init(
                    when: [.json("/email", .present(true)), .json("/password", "espresso")],
                    responses: [.init(status: 200), .init(status: 429)], sequence: .loop),
                .init(response: .init(status: 401, kind: .string("no"))),
            ])
        #expect(
            try exchange.inlineConfiguration() == [
                "variants": [
                    [
                        "when": ["json": ["/email": ["present": true], "/password": "espresso"]],
                        "responses": [["status_code": 200], ["status_code": 429]], "sequence": "loop",
                    ],
                    ["responses": ["status_code": 401, "body": "no"]],
                ]
            ])
    }

    /// Inline, bodies travel in the configuration; the type a file's extension or the JSON kind would give is
    /// named, since the server cannot tell it from base64 or a string.
    @Test func inlineBodiesAndTheirContentTypes() throws {
        let folder = try Fixture.temporaryFolder()
        defer { Fixture.remove(folder) }
        let page = folder.appendingPathComponent("page.HTML")
        try Data("<p>hi</p>".utf8).write(to: page)
        let blob = folder.appendingPathComponent("blob.unknown")
        try Data([9]).write(to: blob)
        func inline(_ response: NetworkExchange.Response) throws -> JSONValue {
            try NetworkExchange(request: .init(method: .get, path: "x"), response: response).inlineConfiguration()
        }
        #expect(try inline(.init()) == ["status_code": 200])
        #expect(try inline(.init(kind: .string("hi"))) == ["status_code": 200, "body": "hi"])
        #expect(try inline(.init(kind: .data(Data([0, 1, 2])))) == ["status_code": 200, "body_base64": "AAEC"])
        #expect(
            try inline(.init(kind: .json(Self.order, encoder: Self.customEncoder))) == [
                "status_code": 200, "headers": ["Content-Type": "application/json"],
                "body": .string(String(decoding: try Self.customEncoder.encode(Self.order), as: UTF8.self)),
            ])
        #expect(
            try inline(.init(kind: .fileContent(pathToFile: page.path))) == [
                "status_code": 200, "headers": ["Content-Type": "text/html; charset=utf-8"],
                "body_base64": "PHA+aGk8L3A+",
            ])
        #expect(
            try inline(.init(kind: .fileContent(pathToFile: blob.path))) == [
                "status_code": 200, "headers": ["Content-Type": "application/octet-stream"], "body_base64": "CQ==",
            ])
        #expect(
            try inline(.init(headers: ["content-type": "application/problem+json"], kind: .json(["a": 1]))) == [
                "status_code": 200, "headers": ["content-type": "application/problem+json"], "body": #"{"a":1}"#,
            ])
        #expect(
            try inline(.init(kind: .fileContent(pathToFile: page.path), template: true)) == [
                "status_code": 200, "headers": ["Content-Type": "text/html; charset=utf-8"], "body": "<p>hi</p>",
                "template": true,
            ])
        #expect(try inline(.init(status: 304, kind: .string("not sent"))) == ["status_code": 304])
    }

    @Test func routesAreSpelledAsFolders() throws {
        #expect(try NetworkExchange.Request(method: .get, path: "api/v1/users/{id}").route() == "/api/v1/users/{id}")
        #expect(try NetworkExchange.Request(method: .get, path: "/api/v1/users/:id/").route() == "/api/v1/users/{id}")
        #expect(try NetworkExchange.Request(method: .get, path: ["api", "*", "users"]).route() == "/api/*/users")
        #expect(try NetworkExchange.Request(method: .get, path: "cdn/**").route() == "/cdn/**")
        #expect(try NetworkExchange.Request(method: .get, path: []).route() == "/")
        #expect(
            try NetworkExchange.Request(method: .get, path: [.literal("*"), "get", "%7Bid%7D"]).route()
                == "/%2A/%67et/%7Bid%7D")
        #expect(try NetworkExchange.Request(method: .get, path: "files/%2A").route() == "/files/%2A")
        #expect(
            try NetworkExchange.Request(method: .get, path: [.literal("50%"), .literal("__espressomartini")]).route()
                == "/50%25/__espressomartini")
        #expect(
            try NetworkExchange.Request(method: .get, path: [.literal("__espressomartini")]).route()
                == "/%5F_espressomartini")
        #expect(throws: MockServerError.self) { try NetworkExchange.Request(method: .get, path: "a/**/b").route() }
        #expect(throws: MockServerError.self) {
            try NetworkExchange.Request(method: .get, path: [.literal("..")]).route()
        }
        #expect(NetworkExchange.Request(method: .post, path: "api/{id}").description == "POST /api/{id}")
    }

    @Test func exchangesThatCannotBeWrittenAreRefusedInThisAPIsWords() throws {
        let folder = try Fixture.temporaryFolder()
        defer { Fixture.remove(folder) }
        let tree = folder.appendingPathComponent("tree")
        #expect(
            throws: MockServerError.invalidArgument(
                "GET /api/{id} and GET /api/* answer the same requests; make them one exchange, with a sequence of "
                    + "responses or with variants")
        ) {
            try NetworkExchange.writeTree(
                [
                    NetworkExchange(request: .init(method: .get, path: "api/{id}")),
                    NetworkExchange(request: .init(method: .post, path: "api/*")),
                    NetworkExchange(request: .init(method: .get, path: "api/*")),
                ], into: tree)
        }
        #expect(throws: MockServerError.invalidArgument("GET /x: it has no response; give at least one")) {
            try NetworkExchange(request: .init(method: .get, path: "x"), responses: []).inlineConfiguration()
        }
        #expect(throws: MockServerError.invalidArgument("GET /x: fileContent: there is no file at /nonexistent/a.png"))
        {
            try NetworkExchange(
                request: .init(method: .get, path: "x"),
                response: .init(kind: .fileContent(pathToFile: "/nonexistent/a.png"))
            ).inlineConfiguration()
        }
        var both = NetworkExchange(request: .init(method: .get, path: "x"), variants: [.init(response: .init())])
        both.responses = [.init()]
        #expect(throws: MockServerError.self) { try both.inlineConfiguration() }
        #expect(
            throws: MockServerError.invalidArgument(
                "GET /x: variant 1: query parameter \"page\" is given two conditions; a 'when' holds one matcher "
                    + "per name: keep one of them")
        ) {
            try NetworkExchange(
                request: .init(method: .get, path: "x"),
                variants: [.init(when: [.query("page", "1"), .query("page", "2")], response: .init())]
            ).inlineConfiguration()
        }
    }
}
