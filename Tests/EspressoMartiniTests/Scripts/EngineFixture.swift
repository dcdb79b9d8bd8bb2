import Dispatch
import EspressoMartini
import EspressoMartiniJansson
import EspressoMartiniScripting
import Logging

/// Scripts run by the real engine in-process: a `ScriptJob` for `GET /a` (or any request) answered by one
/// script, and its answer as the server would send it, computed on the calling thread when it can be,
/// else on the runner's script thread.
enum EngineFixture {
    static func script(
        _ source: String, methodFolder: String = "/nonexistent/a/GET", root: String = "/nonexistent",
        inline: Bool = false
    ) -> ResponseScript {
        ResponseScript(
            source: source, file: "a/GET/a.js", inlinePosition: inline ? SourcePosition(line: 4, column: 9) : nil,
            route: "/a",
            methodFolderRealPath: methodFolder, rootRealPath: root
        )
    }

    /// A call of `script` as the only response of `route`, in a server whose global headers are `global`;
    /// `sameTree`: a call in the tree of an earlier job (whose VM it then uses).
    static func job(
        _ script: ResponseScript, request: Request = Request(method: "GET", path: "/a"), route: String = "/a",
        call: Int = 1,
        cache: PanRequestCache = PanRequestCache(), global: [HTTPHeader] = [], sameTree earlier: ScriptJob? = nil
    ) -> ScriptJob {
        var configuration = ServerConfiguration()
        configuration.headers = global
        let pattern = RoutePattern(parsing: route)
        let exchange = Exchange(
            method: .get, route: pattern, methodFolderName: "GET", responses: [ConfiguredResponse(.script(script))])
        var builder = RouteTrie.Builder()
        _ = builder.insert(pattern, method: .get, exchange: 0)
        let tree =
            earlier?.answer.tree
            ?? ServingTree(
                ExchangeTree(exchanges: [exchange], trie: builder.freeze(), folder: "", realFolder: ""),
                counters: CallCounters(), configuration: configuration
            )
        return ScriptJob(
            answer: ExchangeAnswer(tree: tree, exchangeIndex: 0, position: 0, call: call), script: script,
            model: RequestModel(request, route: pattern, parser: JanssonParser()), cache: cache,
            templates: TemplateEnvironment(cache: cache)
        )
    }

    static func runner(timeout: Double = 1, memoryMiB: Int = 64, logger: Logger = Logger(label: "test")) -> ScriptRunner
    {
        ScriptRunner(
            limits: ScriptLimits(timeout: timeout, memoryMiB: memoryMiB), parser: JanssonParser(), logger: logger,
            threads: 1)
    }

    /// The answer, and whether it was computed on the calling thread.
    static func answer(_ job: ScriptJob, by runner: ScriptRunner) -> (answer: GeneratedAnswer, onThisThread: Bool) {
        if let answer = runner.answerOnThisThread(job) { return (answer, true) }
        let done = DispatchSemaphore(value: 0)
        let box = Box()
        runner.run(job) { answer in
            box.answer = answer
            done.signal()
        }
        _ = done.wait(timeout: .now() + 30)
        return (box.answer ?? .error(599, "no answer within 30 s", globalHeaders: []), false)
    }

    private final class Box: @unchecked Sendable {
        var answer: GeneratedAnswer?
    }
}

extension GeneratedAnswer {
    var text: String { String(decoding: body, as: UTF8.self) }
}
