import EspressoMartini
import Testing

/// A request as conditions see it, built by hand.
struct FakeRequest: VariantInput {
    var query: [(String, String)] = []
    var headers: [(String, String)] = []
    var pathParameters: [String: String] = [:]
    var bodyText: String?
    var bodyTooLarge = false
    var bodyJSON: JSONValue?
    var graphQLOperation: GraphQLOperation?

    func queryValues(_ name: String) -> [String] { query.filter { $0.0 == name }.map(\.1) }
    func headerValues(_ lowercasedName: String) -> [String] {
        headers.filter { $0.0.lowercased() == lowercasedName }.map(\.1)
    }
    func pathParameter(_ name: String) -> String? { pathParameters[name] }

}

@Suite struct VariantConditionsTests {
    static func compile(_ when: String, captures: [String] = ["id"]) -> (VariantConditions?, [String]) {
        let document = #"{"when": \#(when)}"#
        var diagnostics = Diagnostics()
        guard case .object(let members) = json(document) else { fatalError() }
        let conditions = VariantConditions.compile(
            members[0].value, at: ["when"], pathCaptures: captures, file: "c.json",
            map: JSONSourceMap(Array(document.utf8)), into: &diagnostics
        )
        return (conditions, diagnostics.all.map(\.description))
    }

    static func conditions(_ when: String) -> VariantConditions {
        let (conditions, diagnostics) = compile(when)
        #expect(diagnostics.isEmpty, "\(when)")
        return conditions ?? VariantConditions([])
    }

    @Test(
        arguments: [
            (
                #"[]"#, ["id"],
                #"c.json:1:10: error: 'when' must be an object of conditions such as {"query": {"page": "2"}}, found an array"#
            ),
            (
                #"{"header": {"a": "b"}}"#, ["id"],
                "c.json:1:11: error: unknown condition 'header'; 'when' takes 'query', 'headers', 'cookies', 'path', 'body', 'body_base64', 'json', 'form', 'multipart' and 'graphql'; did you mean 'headers'?"
            ),
            (
                #"{"cookie": {}}"#, ["id"],
                "c.json:1:11: error: unknown condition 'cookie'; 'when' takes 'query', 'headers', 'cookies', 'path', 'body', 'body_base64', 'json', 'form', 'multipart' and 'graphql'; did you mean 'cookies'?"
            ),
            (
                #"{"query": "page=2"}"#, ["id"],
                #"c.json:1:20: error: 'query' must be an object of query parameter names to matchers, such as {"name": "value"}, found a string"#
            ),
            (
                #"{"path": {"user": "1"}}"#, ["id"],
                "c.json:1:20: error: the route does not capture 'user': it captures 'id'"
            ),
            (
                #"{"path": {"user": "1"}}"#, ["id", "name"],
                "c.json:1:20: error: the route does not capture 'user': it captures 'id' and 'name'"
            ),
            (
                #"{"path": {"user": "1"}}"#, [],
                "c.json:1:20: error: the route does not capture 'user': it captures nothing; name a folder {user} or :user to capture it"
            ),
            (
                #"{"json": {"user/name": "Ada"}}"#, ["id"],
                #"c.json:1:20: error: 'user/name' is not a JSON Pointer: it must be "" (the whole document) or start with '/', as in '/user/name'"#
            ),
            (
                #"{"json": {"/a~2": "x"}}"#, ["id"],
                "c.json:1:20: error: '/a~2' is not a JSON Pointer: '~' must be followed by 0 (for '~') or 1 (for '/')"
            ),
            (
                #"{"json": ["/a"]}"#, ["id"],
                #"c.json:1:19: error: 'json' must be an object of JSON Pointers to matchers, such as {"/user/name": "Ada"}, found an array"#
            ),
            (
                #"{"body": {"regex": "(a"}}"#, ["id"],
                #"c.json:1:29: error: 'regex' "(a" does not compile: expected ')'"#
            ),
            (
                #"{"headers": {"X": {"equals": 1}}}"#, ["id"],
                #"c.json:1:39: error: 'equals' must be a string, found an integer; the request's values are text here, write "1""#
            ),
            (
                #"{"graphql": {"type": "Query"}}"#, ["id"],
                #"c.json:1:31: error: 'type' must be "query", "mutation" or "subscription", found "Query""#
            ),
            (
                #"{"graphql": {"type": 1}}"#, ["id"],
                #"c.json:1:31: error: 'type' must be "query", "mutation" or "subscription", found an integer"#
            ),
            (
                #"{"graphql": {"operations": "A"}}"#, ["id"],
                "c.json:1:23: error: unknown key 'operations' in 'graphql'; it takes 'operation' and 'type'; did you mean 'operation'?"
            ),
            (
                #"{"graphql": "query"}"#, ["id"],
                #"c.json:1:22: error: 'graphql' must be an object such as {"operation": "GetUser", "type": "query"}, found a string"#
            ),
        ] as [(String, [String], String)])
    func reportsLoadErrorsWithPositions(_ when: String, _ captures: [String], _ message: String) {
        let (conditions, diagnostics) = Self.compile(when, captures: captures)
        #expect(conditions == nil)
        #expect(diagnostics == [message])
    }

    @Test func reportsEveryProblem() {
        let (conditions, diagnostics) = Self.compile(
            #"{"qery": {}, "path": {"x": "1"}, "json": {"a": "1", "/b": {"bad": 1}}}"#)
        #expect(conditions == nil)
        #expect(diagnostics.count == 4)
    }

    static let ada = FakeRequest(
        query: [("page", "2"), ("tag", "a"), ("tag", "b"), ("q", "a b")],
        headers: [
            ("Authorization", "Bearer t0k"), ("Cookie", "session=abc; theme=dark"), ("X-Many", "1"), ("x-many", "2"),
        ],
        pathParameters: ["id": "42"],
        bodyText: #"{"user": {"name": "Ada Lovelace", "id": 7}, "items": [{"id": 1}]}"#,
        bodyJSON: json(#"{"user": {"name": "Ada Lovelace", "id": 7}, "items": [{"id": 1}]}"#)
    )

    @Test(
        arguments: [
            (#"{}"#, nil),
            (#"{"query": {"page": "2"}}"#, nil),
            (#"{"query": {"page": "3"}}"#, #"query "page" is "2", expected "3""#),
            (#"{"query": {"tag": "b", "q": "a b"}}"#, nil),
            (#"{"query": {"tag": "c"}}"#, #"query "tag" has "a" and "b", expected "c""#),
            (#"{"query": {"debug": {"present": false}}}"#, nil),
            (#"{"query": {"page": {"present": false}}}"#, #"query "page" is "2", expected it to be absent"#),
            (#"{"headers": {"AUTHORIZATION": {"prefix": "Bearer "}}}"#, nil),
            (#"{"headers": {"x-many": "2"}}"#, nil),
            (#"{"headers": {"X-Api-Key": {"present": true}}}"#, #"header "x-api-key" is missing"#),
            (#"{"cookies": {"session": "abc"}}"#, nil),
            (#"{"cookies": {"theme": "light"}}"#, #"cookie "theme" is "dark", expected "light""#),
            (#"{"path": {"id": {"regex": "\\d+"}}}"#, nil),
            (#"{"path": {"id": "41"}}"#, #"path "id" is "42", expected "41""#),
            (#"{"body": {"contains": "Lovelace"}}"#, nil),
            (
                #"{"json": {"/user/name": {"regex": "(?i)ada.*"}, "/user/id": {"equals": 7.0}, "/items/0/id": {"equals": 1}}}"#,
                nil
            ),
            (
                #"{"json": {"/user/id": {"regex": "(?i)ada.*"}}}"#,
                #"json "/user/id" is 7, expected a string matching (?i)ada.*"#
            ),
            (#"{"json": {"": {"present": true}}}"#, nil),
            (#"{"json": {"/user/email": {"present": false}}}"#, nil),
            (
                #"{"query": {"page": "2"}, "headers": {"authorization": "x"}, "path": {"id": "0"}}"#,
                #"header "authorization" is "Bearer t0k", expected "x""#
            ),
            (
                #"{"graphql": {"type": "query"}}"#,
                #"graphql type cannot be checked: the request runs no single GraphQL operation"#
            ),
        ] as [(String, String?)])
    func evaluatesInFileOrder(_ when: String, _ mismatch: String?) {
        let conditions = Self.conditions(when)
        #expect(conditions.firstMismatch(for: Self.ada) == mismatch)
        #expect(conditions.holds(for: Self.ada) == (mismatch == nil))
    }

    @Test(
        arguments: [
            (
                FakeRequest(bodyText: "x", bodyTooLarge: true), #"{"body": {"present": true}}"#,
                "body cannot be checked: the body is larger than 1 MiB"
            ),
            (
                FakeRequest(bodyText: "{}", bodyTooLarge: true, bodyJSON: .object([])),
                #"{"json": {"": {"present": true}}}"#, #"json "" cannot be checked: the body is larger than 1 MiB"#
            ),
            (
                FakeRequest(bodyText: "a=1", bodyTooLarge: true), #"{"form": {"a": "1"}}"#,
                #"form "a" cannot be checked: the body is larger than 1 MiB"#
            ),
            (
                FakeRequest(bodyText: "not json"), #"{"json": {"/a": {"present": false}}}"#,
                #"json "/a" cannot be checked: the body is not JSON"#
            ),
            (FakeRequest(), #"{"json": {"/a": "1"}}"#, #"json "/a" cannot be checked: the request has no body"#),
            (FakeRequest(), #"{"body": {"present": false}}"#, nil),
            (FakeRequest(), #"{"body": "x"}"#, #"body is missing, expected "x""#),
            (FakeRequest(bodyText: "name=Ada+L&tag=1&tag=2"), #"{"form": {"name": "Ada L", "tag": "2"}}"#, nil),
            (
                FakeRequest(bodyText: "name=Ada"), #"{"form": {"name": {"prefix": "B"}}}"#,
                #"form "name" is "Ada", expected a value starting with "B""#
            ),
            (
                FakeRequest(bodyText: "{\"a\": 1}", bodyJSON: json(#"{"a": 1}"#)),
                #"{"json": {"/a": {"equals": 1.0}}}"#, nil
            ),
            (
                FakeRequest(graphQLOperation: GraphQLOperation(type: .mutation, name: "AddUser")),
                #"{"graphql": {"operation": "AddUser", "type": "mutation"}}"#, nil
            ),
            (
                FakeRequest(graphQLOperation: GraphQLOperation(type: .mutation, name: "AddUser")),
                #"{"graphql": {"type": "query"}}"#, #"graphql type is "mutation", expected "query""#
            ),
            (
                FakeRequest(graphQLOperation: GraphQLOperation(type: .query, name: "GetUser")),
                #"{"graphql": {"operation": {"regex": "List.*"}}}"#,
                #"graphql operation is "GetUser", expected a value matching List.*"#
            ),
            (
                FakeRequest(graphQLOperation: GraphQLOperation(type: .query, name: nil)),
                #"{"graphql": {"operation": "GetUser"}}"#, #"graphql operation is missing, expected "GetUser""#
            ),
            (
                FakeRequest(graphQLOperation: GraphQLOperation(type: .query, name: nil)),
                #"{"graphql": {"operation": {"present": false}}}"#, nil
            ),
            (
                FakeRequest(), #"{"graphql": {"operation": {"present": false}}}"#,
                "graphql operation cannot be checked: the request runs no single GraphQL operation"
            ),
        ] as [(FakeRequest, String, String?)])
    func evaluatesTheBodyAndGraphQL(_ request: FakeRequest, _ when: String, _ mismatch: String?) {
        let conditions = Self.conditions(when)
        #expect(conditions.firstMismatch(for: request) == mismatch)
        #expect(conditions.holds(for: request) == (mismatch == nil))
    }

    @Test(
        arguments: [
            (#"{}"#, "", true, false),
            (#"{"query": {"page": "2"}}"#, "query page=2", false, false),
            (
                #"{"headers": {"Authorization": {"present": false}}, "cookies": {"s": {"prefix": "a"}}}"#,
                "header authorization absent, cookie s starts with a", false, false
            ),
            (
                #"{"json": {"/user/name": {"regex": "(?i)ada.*"}, "": {"equals": [1]}}}"#,
                #"json /user/name matches (?i)ada.*, json ""=[1]"#, false, true
            ),
            (#"{"path": {"id": "1"}, "body": {"contains": "x"}}"#, "path id=1, body contains x", false, true),
            (#"{"form": {"a": "1"}}"#, "form a=1", false, true),
            (
                #"{"graphql": {"type": "query", "operation": "A"}}"#, "graphql type=query, graphql operation=A", false,
                true
            ),
        ] as [(String, String, Bool, Bool)])
    func summarizes(_ when: String, _ summary: String, _ alwaysHolds: Bool, _ readsBody: Bool) {
        let conditions = Self.conditions(when)
        #expect(conditions.summary == summary)
        #expect(conditions.alwaysHolds == alwaysHolds)
        #expect(conditions.readsBody == readsBody)
    }
}
