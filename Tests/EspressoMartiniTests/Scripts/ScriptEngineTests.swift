import EspressoMartini
import EspressoMartiniScripting
import EspressoMartiniJansson
import Testing

/// The engine's side: JavaScriptCore compiles and checks scripts at load, and the prelude's answer becomes
/// the bytes sent (headers in §2's precedence, the body's type, the 500 of a failure).
@Suite struct ScriptEngineTests {
    static func script(_ source: String, inline: Bool = false) -> ResponseScript {
        ResponseScript(
            source: source, file: "a/GET/a.js", inlinePosition: inline ? SourcePosition(line: 4, column: 9) : nil, route: "/a",
            methodFolderRealPath: "/nonexistent/a/GET", rootRealPath: "/nonexistent"
        )
    }

    @Test("the checker compiles and runs the top level", arguments: [
        ("function response(request, cache) { return Response.ok(); }", nil as ScriptProblem?),
        ("const answer = (r) => Response.ok(r?.path ?? 'x');\nclass A {}\nfunction response(request) { return answer(request); }", nil),
        ("function response() {\n  return {;\n}", ScriptProblem(message: "SyntaxError: Unexpected token ';'. Expected a property name.", line: 2)),
        ("function answer() {}", ScriptProblem(message: "the script defines no function response(request, cache); add one that returns a Response, such as function response(request, cache) { return Response.ok(Body.json({})); }")),
        ("let response = 1;", ScriptProblem(message: "the script defines no function response(request, cache); add one that returns a Response, such as function response(request, cache) { return Response.ok(Body.json({})); }")),
        ("\n\nnull.x;\nfunction response() {}", ScriptProblem(message: "TypeError: null is not an object (evaluating 'null.x')", line: 3, column: 5)),
        ("while (true) {}\nfunction response() {}", ScriptProblem(message: "the script ran longer than script_timeout (0.2 s) and was stopped")),
    ])
    func checker(_ source: String, _ expected: ScriptProblem?) {
        let checker = JavaScriptCoreChecker(timeout: 0.2, parser: JanssonParser())
        #expect(checker.check(Self.script(source)) == expected)
        // The checker goes on after any outcome, a stopped endless loop included.
        #expect(checker.check(Self.script("function response() {}")) == nil)
    }

    static func answer(_ text: String, global: [HTTPHeader] = [HTTPHeader(name: "X-Global", value: "g"), HTTPHeader(name: "Content-Type", value: "x/g")]) -> GeneratedAnswer {
        ScriptAnswer.make(fromAnswer: text, job: job(script("", inline: true), global: global), parser: JanssonParser()) { _ in }
    }

    /// A call of `script` as the only response of `GET /a`, in a server whose global headers are `global`.
    static func job(_ script: ResponseScript, global: [HTTPHeader]) -> ScriptJob {
        var configuration = ServerConfiguration()
        configuration.headers = global
        let route = RoutePattern(parsing: "/a")
        let exchange = Exchange(method: .get, route: route, methodFolderName: "GET", responses: [ConfiguredResponse(.script(script))])
        var builder = RouteTrie.Builder()
        _ = builder.insert(route, method: .get, exchange: 0)
        let tree = ServingTree(
            ExchangeTree(exchanges: [exchange], trie: builder.freeze(), folder: "", realFolder: ""), counters: CallCounters(), configuration: configuration
        )
        return ScriptJob(
            answer: ExchangeAnswer(tree: tree, exchangeIndex: 0, position: 0), script: script,
            model: RequestModel(Request(method: "GET", path: "/a"), route: route, parser: JanssonParser()), cache: PanRequestCache(),
            templates: TemplateEnvironment()
        )
    }

    @Test("the prelude's answer as bytes: the script's headers, then the body's type, then the global ones", arguments: [
        (answer(#"{"status":201,"headers":[["X-A","1"],["Set-Cookie","a"],["Set-Cookie","b"]],"body":{"kind":"json","text":"{\"a\":1}"}}"#),
         GeneratedAnswer(statusCode: 201, headers: [
            HTTPHeader(name: "X-A", value: "1"), HTTPHeader(name: "Set-Cookie", value: "a"), HTTPHeader(name: "Set-Cookie", value: "b"),
            HTTPHeader(name: "Content-Type", value: "application/json"), HTTPHeader(name: "X-Global", value: "g"),
         ], body: Array(#"{"a":1}"#.utf8))),
        (answer(#"{"status":200,"headers":[["content-type","text/csv"]],"body":{"kind":"text","text":"a,b"}}"#),
         GeneratedAnswer(statusCode: 200, headers: [HTTPHeader(name: "content-type", value: "text/csv"), HTTPHeader(name: "X-Global", value: "g")], body: Array("a,b".utf8))),
        (answer(#"{"status":204,"headers":[],"body":{"kind":"text","text":"dropped"}}"#),
         GeneratedAnswer(statusCode: 204, headers: [HTTPHeader(name: "X-Global", value: "g"), HTTPHeader(name: "Content-Type", value: "x/g")], body: [])),
        (answer(#"{"status":200,"headers":[],"body":{"kind":"yaml","text":"a: 1\n"}}"#),
         GeneratedAnswer(statusCode: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/yaml"), HTTPHeader(name: "X-Global", value: "g")], body: Array("a: 1\n".utf8))),
        (answer(#"{"error":"TypeError: x","line":3,"column":2}"#, global: []),
         GeneratedAnswer(statusCode: 500, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(#"{"error":"TypeError: x","route":"/a","line":4}"#.utf8))),
        (answer(#"{"status":200,"headers":[["X-A","a\nb"]],"body":{"kind":"none"}}"#, global: []),
         GeneratedAnswer(statusCode: 500, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(#"{"error":"the header \"X-A\" cannot be sent: a name is a token and a value has no line break","route":"/a","line":null}"#.utf8))),
        (answer(#"{"status":200,"headers":[],"body":{"kind":"file","path":"page.html","contentType":null}}"#, global: []),
         GeneratedAnswer(statusCode: 500, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(#"{"error":"Body.file: 'page.html' does not exist in the method folder","route":"/a","line":null}"#.utf8))),
    ])
    func answers(_ answer: GeneratedAnswer, _ expected: GeneratedAnswer) {
        #expect(answer == expected, "\(String(decoding: answer.body, as: UTF8.self))")
    }
}
