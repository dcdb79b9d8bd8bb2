import EspressoMartini
import EspressoMartiniJansson
import Testing

/// The request model conditions read (doc/variants.md): every part as received, parsed on first use.
@Suite struct RequestModelTests {
    static func model(
        _ method: String = "GET", _ path: String = "/users/42", query: String = "", headers: [(String, String)] = [],
        body: String? = nil,
        route: String = "/users/{id}"
    ) -> RequestModel {
        let request = Request(
            method: method, path: path, rawQuery: query,
            headers: RequestHeaders(headers.map { HTTPHeader(name: $0.0, value: $0.1) }),
            body: body.map { Array($0.utf8) }
        )
        return RequestModel(request, route: RoutePattern(parsing: route), parser: JanssonParser())
    }

    @Test func queryParametersAreDecodedWithRepeatedNamesInOrder() {
        let model = Self.model(query: "tag=a&q=caf%C3%A9+cr%C3%A8me&tag=b&%zz=1&&")
        #expect(model.queryValues("tag") == ["a", "b"])
        #expect(model.queryValues("q") == ["café crème"])
        #expect(model.queryValues("%zz") == ["1"])
        #expect(model.queryValues("none").isEmpty)
    }

    @Test func headersAndCookiesWhateverTheCase() {
        let model = Self.model(headers: [
            ("X-Tag", "a"), ("x-tag", "b"), ("Cookie", "session=abc; theme=dark"), ("cookie", "session=def"),
        ])
        #expect(model.headerValues("x-tag") == ["a", "b"])
        #expect(model.cookieValues("session") == ["abc", "def"])
        #expect(model.cookieValues("theme") == ["dark"])
        #expect(model.headerValues("absent").isEmpty)
    }

    @Test func pathParametersByTheRoutesNames() {
        let model = Self.model("GET", "/users/ada/posts/7", route: "/users/:user/posts/{post}")
        #expect(model.pathParameter("user") == "ada")
        #expect(model.pathParameter("post") == "7")
        #expect(model.pathParameter("id") == nil)
    }

    @Test(
        arguments: [
            (#"{"user": {"name": "ada"}}"#, #"{"user":{"name":"ada"}}"#),
            ("[1, 2.5]", "[1,2.5]"),
            ("not json", nil),
            ("", nil),
            (#"{"a": 1,}"#, nil),
        ] as [(String, String?)])
    func theBodyAsJSONWhateverItsType(_ body: String, _ expected: String?) {
        #expect(Self.model("POST", body: body).bodyJSON?.compactText == expected)
    }

    @Test func theBodyAsAForm() {
        let model = Self.model("POST", body: "user=ada+lovelace&password=%65spresso")
        #expect(model.formValues("user") == ["ada lovelace"])
        #expect(model.formValues("password") == ["espresso"])
        #expect(Self.model("POST", body: nil).formValues("user").isEmpty)
    }

    @Test func aBodyKeptOnlyInPartIsTooLargeAndNotJSON() {
        let request = Request(method: "POST", path: "/x", body: Array(#"{"a": 1}"#.utf8), bodySize: 2_000_000)
        let model = RequestModel(request, route: RoutePattern(parsing: "/x"), parser: JanssonParser())
        #expect(model.bodyTooLarge)
        #expect(model.bodyJSON == nil)
        #expect(!Self.model("POST", body: "{}").bodyTooLarge)
    }

    @Test func theGraphQLOperationOfAPostBodyOrAGetQuery() {
        let post = Self.model(
            "POST", body: ##"{"query": "# a comment { \n mutation AddItem($id: ID!) { add(id: $id) { id } }"}"##)
        #expect(post.graphQLOperation == GraphQLOperation(type: .mutation, name: "AddItem"))
        let get = Self.model("GET", query: "query=%7B+cart+%7B+id+%7D+%7D")
        #expect(get.graphQLOperation == GraphQLOperation(type: .query, name: nil))
        #expect(Self.model("POST", body: "not json").graphQLOperation == nil)
    }
}
