import EspressoMartini
@testable import EspressoMartiniScripting
import EspressoMartiniJansson
import Testing

/// The engine's side: JavaScriptCore compiles and checks scripts at load, and a script's `Response`
/// becomes the bytes sent (the script's headers first, then the body's type, then the global ones; template data; the 500 of a failure).
@Suite struct ScriptEngineTests {
    @Test(
        "the checker compiles and runs the top level",
        arguments: [
            ("function response(request, cache) { return Response.ok(); }", nil as ScriptProblem?),
            (
                "const answer = (r) => Response.ok(r?.path ?? 'x');\nclass A {}\nfunction response(request) { return answer(request); }",
                nil
            ),
            (
                "function response() {\n  return {;\n}",
                ScriptProblem(message: "SyntaxError: Unexpected token ';'. Expected a property name.", line: 2)
            ),
            (
                "function answer() {}",
                ScriptProblem(
                    message:
                        "the script defines no function response(request, cache); add one that returns a Response, such as function response(request, cache) { return Response.ok(Body.json({})); }"
                )
            ),
            (
                "let response = 1;",
                ScriptProblem(
                    message:
                        "the script defines no function response(request, cache); add one that returns a Response, such as function response(request, cache) { return Response.ok(Body.json({})); }"
                )
            ),
            (
                "\n\nnull.x;\nfunction response() {}",
                ScriptProblem(message: "TypeError: null is not an object (evaluating 'null.x')", line: 3, column: 5)
            ),
            (
                "while (true) {}\nfunction response() {}",
                ScriptProblem(message: "the script ran longer than script_timeout (0.2 s) and was stopped")
            ),
            (
                "const all = [];\nwhile (true) all.push(new Array(100000).fill(1.5));\nfunction response() {}",
                ScriptProblem(message: "the script used more memory than script_memory (16 MiB) allows and was stopped")
            ),
        ])
    func checker(_ source: String, _ expected: ScriptProblem?) {
        let checker = JavaScriptCoreChecker(limits: ScriptLimits(timeout: 0.2, memoryMiB: 16), parser: JanssonParser())
        #expect(checker.check(EngineFixture.script(source)) == expected)
        // The checker goes on after any outcome, a stopped endless loop included.
        #expect(checker.check(EngineFixture.script("function response() {}")) == nil)
        checker.loadEnded()
    }

    static func answer(
        _ response: ScriptResponse, data: JSONValue? = nil,
        global: [HTTPHeader] = [
            HTTPHeader(name: "X-Global", value: "g"), HTTPHeader(name: "Content-Type", value: "x/g"),
        ]
    ) -> GeneratedAnswer {
        let cache = PanRequestCache()
        cache.withCall { $0.setValue(.string("from the cache"), forKey: "note") }
        let job = EngineFixture.job(
            EngineFixture.script("", inline: true), request: Request(method: "GET", path: "/a", rawQuery: "q=<b>"),
            cache: cache, global: global)
        return ScriptAnswer.make(from: response, job: job, parser: JanssonParser(), yaml: { _ in Array("yaml\n".utf8) })
        { _ in }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(
        "a Response as bytes: the script's headers, then the body's type, then the global ones; template data rendered",
        arguments: [
            (
                answer(
                    ScriptResponse(
                        status: 201,
                        headers: [
                            HTTPHeader(name: "X-A", value: "1"), HTTPHeader(name: "Set-Cookie", value: "a"),
                            HTTPHeader(name: "Set-Cookie", value: "b"),
                        ], body: .json(bytes(#"{"a":1}"#), data: nil))),
                GeneratedAnswer(
                    statusCode: 201,
                    headers: [
                        HTTPHeader(name: "X-A", value: "1"), HTTPHeader(name: "Set-Cookie", value: "a"),
                        HTTPHeader(name: "Set-Cookie", value: "b"),
                        HTTPHeader(name: "Content-Type", value: "application/json"),
                        HTTPHeader(name: "X-Global", value: "g"),
                    ], body: bytes(#"{"a":1}"#))
            ),
            (
                answer(
                    ScriptResponse(
                        status: 200, headers: [HTTPHeader(name: "content-type", value: "text/csv")],
                        body: .text(bytes("a,b"), data: nil))),
                GeneratedAnswer(
                    statusCode: 200,
                    headers: [
                        HTTPHeader(name: "content-type", value: "text/csv"), HTTPHeader(name: "X-Global", value: "g"),
                    ], body: bytes("a,b"))
            ),
            (
                answer(ScriptResponse(status: 204, headers: [], body: .text(bytes("dropped"), data: nil))),
                GeneratedAnswer(
                    statusCode: 204,
                    headers: [
                        HTTPHeader(name: "X-Global", value: "g"), HTTPHeader(name: "Content-Type", value: "x/g"),
                    ], body: [])
            ),
            (
                answer(ScriptResponse(status: 200, headers: [], body: .yaml(bytes("a: 1\n")))),
                GeneratedAnswer(
                    statusCode: 200,
                    headers: [
                        HTTPHeader(name: "Content-Type", value: "application/yaml"),
                        HTTPHeader(name: "X-Global", value: "g"),
                    ], body: bytes("a: 1\n"))
            ),
            (
                answer(
                    ScriptResponse(
                        status: 200, headers: [],
                        body: .text(
                            bytes("{{greeting}} {{request.query}}, {{cache.note}}"),
                            data: .object([JSONMember(key: "greeting", value: .string("Hi <you>"))]))), global: []),
                GeneratedAnswer(
                    statusCode: 200, headers: [HTTPHeader(name: "Content-Type", value: "text/plain; charset=utf-8")],
                    body: bytes("Hi <you> q=<b>, from the cache"))
            ),
            (
                answer(
                    ScriptResponse(
                        status: 200, headers: [],
                        body: .json(
                            bytes(#"{"{{k}}":"{{v}}","n":[1,"{{call}}"]}"#),
                            data: .object([JSONMember(key: "v", value: .string("say \"hi\""))]))), global: []),
                GeneratedAnswer(
                    statusCode: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                    body: bytes(#"{"{{k}}":"say \"hi\"","n":[1,"1"]}"#))
            ),
            (
                answer(
                    ScriptResponse(
                        status: 200, headers: [],
                        body: .yamlTemplate(
                            json: bytes(#"{"a":"{{v}}"}"#), data: .object([JSONMember(key: "v", value: .string("x"))]))),
                    global: []),
                GeneratedAnswer(
                    statusCode: 200, headers: [HTTPHeader(name: "Content-Type", value: "application/yaml")],
                    body: bytes("yaml\n"))
            ),
            (
                answer(
                    ScriptResponse(status: 200, headers: [], body: .text(bytes("{{#open}}"), data: .object([]))),
                    global: []),
                GeneratedAnswer(
                    statusCode: 500, headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                    body: bytes(
                        #"{"error":"Body.text line 1, column 1: section `open` is never closed: add `{{/open}}` after its content","route":"/a","line":null}"#
                    ))
            ),
            (
                answer(
                    ScriptResponse(status: 200, headers: [HTTPHeader(name: "X-A", value: "a\nb")], body: .none),
                    global: []),
                GeneratedAnswer(
                    statusCode: 500, headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                    body: bytes(
                        #"{"error":"the header \"X-A\" cannot be sent: a name is a token and a value has no line break","route":"/a","line":null}"#
                    ))
            ),
            (
                answer(
                    ScriptResponse(status: 200, headers: [], body: .file(path: "page.html", contentType: nil)),
                    global: []),
                GeneratedAnswer(
                    statusCode: 500, headers: [HTTPHeader(name: "Content-Type", value: "application/json")],
                    body: bytes(
                        #"{"error":"Body.file: 'page.html' does not exist in the method folder","route":"/a","line":null}"#
                    ))
            ),
        ])
    func answers(_ answer: GeneratedAnswer, _ expected: GeneratedAnswer) {
        #expect(answer == expected, "\(answer.text)")
    }

    @Test("a failure's description becomes its 500 with the line as the user finds it")
    func failureLine() {
        let problem = ScriptAnswer.problem(
            fromDescription: #"{"error":"TypeError: x","line":3,"column":2}"#, parser: JanssonParser())
        #expect(problem == ScriptProblem(message: "TypeError: x", line: 3, column: 2))
        let answer = ScriptAnswer.failure(problem!, script: EngineFixture.script("", inline: true), globalHeaders: [])
        #expect(answer.text == #"{"error":"TypeError: x","route":"/a","line":4}"#)
    }
}
