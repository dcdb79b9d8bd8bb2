import Dispatch
import EspressoMartini
import EspressoMartiniScripting
import Foundation
import Logging
import Testing

/// How the engine runs a call (doc/scripts.md, "How scripts run"): on the calling thread when it is quick,
/// else on a script thread; stopped by JavaScriptCore's time-limit callback for its time or its memory,
/// which says why; the request read lazily.
@Suite struct ScriptRunTests {
    static func request(
        _ method: String = "GET", _ path: String = "/a", query: String = "", headers: [(String, String)] = [],
        body: String? = nil
    ) -> Request {
        Request(
            method: method, path: path, rawQuery: query,
            headers: RequestHeaders(headers.map { HTTPHeader(name: $0.0, value: $0.1) }),
            body: body.map { Array($0.utf8) }
        )
    }

    @Test("a quick script answers on the calling thread")
    func quickOnThisThread() {
        let runner = EngineFixture.runner()
        let (answer, onThisThread) = EngineFixture.answer(
            EngineFixture.job(
                EngineFixture.script(
                    "function response(request) { return Response.ok(Body.json({id: request.pathParameters.id})); }"),
                request: Self.request("GET", "/users/42"), route: "/users/{id}"),
            by: runner
        )
        #expect(answer.statusCode == 200)
        #expect(answer.text == #"{"id":"42"}"#)
        #expect(onThisThread)
    }

    @Test(
        "an endless script is stopped at the calling thread's budget with no effect, then by its timeout on a script thread"
    )
    func endlessRunsAgainOnAScriptThread() {
        let runner = EngineFixture.runner(timeout: 0.3)
        let cache = PanRequestCache()
        let job = EngineFixture.job(
            EngineFixture.script(
                "function response(request, cache) { cache.seen = (cache.seen ?? 0) + 1; while (true) {} }"),
            cache: cache)
        #expect(runner.answerOnThisThread(job) == nil, "past the budget, the call is given up here")
        #expect(cache.snapshot == .object([]), "a call given up changes nothing")
        let started = ContinuousClock.now
        let (answer, onThisThread) = EngineFixture.answer(job, by: runner)
        #expect(answer.statusCode == 500)
        #expect(
            answer.text.contains("the script ran longer than script_timeout (0.3 s) and was stopped"), "\(answer.text)")
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(!onThisThread, "after running past the budget twice, the script runs on script threads")
        #expect(cache.snapshot == .object([]), "a call stopped by its timeout publishes nothing")
    }

    @Test("a call that grows the server's memory past script_memory is stopped and answered 500; the next call runs")
    func memoryLimit() {
        let runner = EngineFixture.runner(timeout: 5, memoryMiB: 32)
        let job = EngineFixture.job(
            EngineFixture.script(
                "function response() { const all = []; while (true) all.push(new Array(100000).fill(1.5)); }"))
        let (answer, _) = EngineFixture.answer(job, by: runner)
        #expect(answer.statusCode == 500)
        #expect(
            answer.text
                == #"{"error":"the script used more memory than script_memory (32 MiB) allows and was stopped","route":"/a","line":null}"#
        )
        let (next, _) = EngineFixture.answer(
            EngineFixture.job(EngineFixture.script("function response() { return Response.ok('fine'); }")), by: runner)
        #expect(next.text == "fine")
    }

    /// The server's memory grows for every call running while one runs away: the VM's own heap tells whose
    /// growth it is.
    @Test("a call running while another runs away is stopped by its own timeout, not for the other's memory")
    func anotherCallsRunaway() {
        let runaway = EngineFixture.runner(timeout: 5), looping = EngineFixture.runner(timeout: 0.6)
        let allocating = EngineFixture.job(
            EngineFixture.script(
                "function response() { const all = []; while (true) all.push(new Array(1000000).fill(1.5)); }"))
        let endless = EngineFixture.job(EngineFixture.script("function response() { let n = 0; while (true) n++; }"))
        let done = DispatchSemaphore(value: 0)
        let answers = Locked<[String: String]>([:])
        looping.run(endless) { answer in
            answers.withLock { $0["endless"] = answer.text }
            done.signal()
        }
        Thread.sleep(forTimeInterval: 0.05)
        runaway.run(allocating) { answer in
            answers.withLock { $0["allocating"] = answer.text }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 30) == .success && done.wait(timeout: .now() + 30) == .success)
        let texts = answers.withLock { $0 }
        #expect(texts["allocating"]?.contains("used more memory than script_memory (64 MiB)") == true, "\(texts)")
        #expect(texts["endless"]?.contains("ran longer than script_timeout (0.6 s)") == true, "\(texts)")
    }

    /// A call that waits for the cache behind another for longer than its own timeout, then throws an
    /// error whose message is the engine's own for a stopped script: the time waited is no run time, and
    /// the error is the script's, because the time-limit callback alone says when a script was stopped.
    @Test("time waiting for the cache is no run time, and a script's own error is its own")
    func timeoutIsTheCallbacksWord() {
        let cache = PanRequestCache()
        let holder = EngineFixture.runner(timeout: 5), waiter = EngineFixture.runner(timeout: 0.3)
        let holding = EngineFixture.job(
            EngineFixture.script(
                "function response(request, cache) { cache.held = 1; const end = Date.now() + 800; while (Date.now() < end) {} return Response.ok('held'); }"
            ), cache: cache)
        let waiting = EngineFixture.job(
            EngineFixture.script(
                "function response(request, cache) { cache.waited = 1; throw new Error('JavaScript execution terminated.'); }"
            ), cache: cache)
        let held = DispatchSemaphore(value: 0)
        holder.run(holding) { _ in held.signal() }
        Thread.sleep(forTimeInterval: 0.1)
        let done = DispatchSemaphore(value: 0)
        let answer = Locked<GeneratedAnswer?>(nil)
        waiter.run(waiting) { made in
            answer.withLock { $0 = made }
            done.signal()
        }
        #expect(held.wait(timeout: .now() + 20) == .success)
        #expect(done.wait(timeout: .now() + 20) == .success)
        let text = answer.withLock { $0?.text } ?? ""
        #expect(text.hasPrefix(#"{"error":"Error: JavaScript execution terminated.","#), "\(text)")
        #expect(
            cache.snapshot
                == .object([JSONMember(key: "held", value: .integer(1)), JSONMember(key: "waited", value: .integer(1))]),
            "a call that throws keeps its changes, as in Voodoo; only one the server stops loses them")
    }

    @Test("a call on the calling thread does not wait for the cache behind a script thread's call: it runs again there")
    func cacheHeldByAScriptThread() throws {
        let cache = PanRequestCache()
        let holding = DispatchSemaphore(value: 0)
        let holder = EngineFixture.runner(
            timeout: 5,
            logger: Logger(label: "holder") { _ in SignallingLogHandler(semaphore: holding, text: "holding") })
        let runner = EngineFixture.runner()
        let holdingJob = EngineFixture.job(
            EngineFixture.script(
                "function response(request, cache) { cache.n = 1; console.log('holding'); const end = Date.now() + 500; while (Date.now() < end) {} return Response.ok(); }"
            ), cache: cache)
        let counting = EngineFixture.job(
            EngineFixture.script(
                "function response(request, cache) { cache.n = (cache.n ?? 0) + 1; return Response.ok(String(cache.n)); }"
            ), cache: cache)
        let held = DispatchSemaphore(value: 0)
        holder.run(holdingJob) { _ in held.signal() }
        try #require(holding.wait(timeout: .now() + 20) == .success, "the holder took the cache")
        let started = ContinuousClock.now
        #expect(runner.answerOnThisThread(counting) == nil, "given up at once")
        #expect(ContinuousClock.now - started < .milliseconds(300), "without waiting for the holder")
        #expect(held.wait(timeout: .now() + 20) == .success)
        let (answer, _) = EngineFixture.answer(counting, by: runner)
        #expect(answer.text == "2", "run again, it counts once, after the holder")
    }

    @Test("the request: every part, read on first use; listed, copied and serialized like a plain object")
    func requestObject() throws {
        let runner = EngineFixture.runner()
        let source = """
            function response(request) {
                const copy = {...request};
                return Response.ok(Body.json({
                    keys: Object.keys(request), copied: Object.keys(copy).length, assigned: Object.keys(Object.assign({}, request)).length,
                    entries: Object.entries(request).length, has: "bodyJSON" in request, whole: JSON.parse(JSON.stringify(request)),
                    again: request.bodyJSON === request.bodyJSON,
                }));
            }
            """
        let request = Self.request(
            "POST", "/users/42", query: "t=1&t=2&q=caf%C3%A9+x",
            headers: [("X-Tag", "a"), ("x-tag", "b"), ("Content-Type", "application/json; charset=utf-8")],
            body: #"{"query": "query Q { a }", "operationName": "Q", "é": 1}"#
        )
        let (answer, _) = EngineFixture.answer(
            EngineFixture.job(EngineFixture.script(source), request: request, route: "/users/{id}", call: 7), by: runner
        )
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any], "\(answer.text)")
        let names = [
            "method", "headers", "path", "query", "body", "pathComponents", "pathParameters", "queryParameters",
            "bodyJSON", "bodyYAML",
            "formParameters", "graphQLRequest", "call",
        ]
        #expect(object["keys"] as? [String] == names)
        #expect(
            object["copied"] as? Int == names.count && object["assigned"] as? Int == names.count
                && object["entries"] as? Int == names.count)
        #expect(object["has"] as? Bool == true && object["again"] as? Bool == true)
        let whole = try #require(object["whole"] as? [String: Any])
        #expect(
            whole["method"] as? String == "POST" && whole["path"] as? String == "/users/42"
                && whole["query"] as? String == "t=1&t=2&q=caf%C3%A9+x")
        #expect((whole["headers"] as? [String: Any])?["x-tag"] as? [String] == ["a", "b"])
        #expect(whole["pathComponents"] as? [String] == ["/", "users", "42"])
        #expect(whole["pathParameters"] as? [String: String] == ["id": "42"])
        #expect((whole["queryParameters"] as? [String: Any])?["q"] as? String == "café x")
        #expect((whole["bodyJSON"] as? [String: Any])?["é"] as? Int == 1)
        #expect(whole["bodyYAML"] is NSNull && whole["formParameters"] as? [String: String] == [:])
        #expect((whole["graphQLRequest"] as? [String: Any])?["operationName"] as? String == "Q")
        #expect(whole["call"] as? Int == 7)
    }

    @Test("a request kept past its call reads nothing of a later call's request")
    func requestKeptPastItsCall() {
        let runner = EngineFixture.runner()
        let script = EngineFixture.script(
            """
            let kept;
            function response(request) {
                if (kept === undefined) { kept = request; return Response.ok(request.path); }
                try { return Response.ok(kept.method); } catch (e) { return Response.ok(e.message + " | " + kept.path); }
            }
            """)
        let firstJob = EngineFixture.job(script, request: Self.request("GET", "/a"))
        let (first, _) = EngineFixture.answer(firstJob, by: runner)
        #expect(first.text == "/a")
        let (second, _) = EngineFixture.answer(
            EngineFixture.job(script, request: Self.request("DELETE", "/a"), sameTree: firstJob), by: runner)
        #expect(
            second.text
                == "request.method can be read only while its own call runs; keep what a later call needs in cache | /a"
        )
    }
}
