import Foundation
import Testing

/// doc/scripts.md's failures are answers: a `500` with the message, the route and the line; the server goes on.
@Suite("script failures", .serialized)
struct ScriptFailureTests {
    static let exchanges: [String: TreeEntry] = [
        "fail/{kind}/GET/configuration.json": #"{"javascript_file": "fail.js"}"#,
        "fail/{kind}/GET/fail.js": """
        function recurse(n) { return recurse(n + 1) + 1; }
        const failures = {
            error: () => { throw new Error("no luck"); },
            typeError: () => null.field,
            string: () => { throw "a string"; },
            object: () => { throw {code: 7}; },
            undefined: () => undefined,
            notResponse: () => ({status: 200}),
            cyclic: () => { const a = {}; a.self = a; return Response.ok(Body.json(a)); },
            status: () => Response.raw(99),
            recursion: () => recurse(0),
            huge: () => Response.ok("x".repeat(80 * 1024 * 1024)),
            allocation: () => { const all = []; while (true) all.push(new Array(1000000).fill(1)); },
            loop: () => { while (true) {} },
            catchingLoop: () => { while (true) { try { while (true) {} } catch (e) {} } },
            header: () => Response.ok("x", {"Bad Name": "v"}),
            nulHeader: () => Response.ok("x", {"X-A": "a\\0X-B\\0b"}),
            fileType: () => Response.ok(Body.file("data.txt", "text/plain\\r\\nX-Injected: 1")),
        };
        function response(request) {
            return failures[request.pathParameters.kind]();
        }
        """,
        "fail/{kind}/GET/data.txt": "data",
        "fine/GET/configuration.json": #"{"javascript": "function response() { return Response.ok('fine'); }"}"#,
        "static/GET/configuration.json": #"{"body": "static"}"#,
    ]

    static func serve() async throws -> (TemporaryTree, ServerProcess) {
        let tree = try TemporaryTree(
            exchanges: exchanges, configuration: #"{"script_timeout": 0.5, "script_memory": 128}"#)
        return (tree, try await ServerProcess.serving(tree))
    }

    @Test(
        "each failure is a 500 with message, route and line; the next script call is served",
        arguments: [
            ("error", "Error: no luck", 3 as Int?),
            ("typeError", "TypeError: null is not an object", 4),
            ("string", #"the script threw "a string""#, nil),
            ("object", #"the script threw {"code":7}"#, nil),
            (
                "undefined", "must return a Response such as Response.ok(Body.json({...})), but it returned undefined",
                nil
            ),
            ("notResponse", "but it returned an object that is not a Response", nil),
            ("cyclic", "TypeError: JSON.stringify cannot serialize cyclic structures.", nil),
            ("status", "a Response's status must be an integer from 200 to 599, got 99", nil),
            ("recursion", "RangeError: Maximum call stack size exceeded.", 1),
            ("huge", "larger than the 64 MiB a script may answer", nil),
            ("allocation", "the script used more memory than script_memory (128 MiB) allows and was stopped", nil),
            ("loop", "the script ran longer than script_timeout (0.5 s) and was stopped", nil),
            ("catchingLoop", "the script ran longer than script_timeout (0.5 s) and was stopped", nil),
            ("header", "the header \"Bad Name\" cannot be sent", nil),
            ("nulHeader", "the header \"X-A\" cannot be sent", nil),
            ("fileType", "the content type \"text/plain\\r\\nX-Injected: 1\" cannot be sent", nil),
        ] as [(String, String, Int?)])
    func failure(_ kind: String, _ message: String, _ line: Int?) async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        let response = try await server.client.get("/fail/\(kind)")
        #expect(response.statusCode == 500, "\(kind): \(response.text)")
        let object = try #require(try response.json() as? [String: Any], "\(response.text)")
        let error = try #require(object["error"] as? String)
        #expect(error.contains(message), "\(kind): \(error)")
        #expect(object["route"] as? String == "/fail/{kind}")
        if let line { #expect(object["line"] as? Int == line, "\(kind): \(response.text)") }
        #expect(try await server.client.get("/fine").text == "fine", "the server goes on after \(kind)")
        let logged = await server.waitForStandardErrorLine { $0.contains("WARNING script /fail/{kind} failed:") }
        #expect(logged != nil)
    }

    @Test("stopping while scripts run and wait: every request is answered, and the server exits 0")
    func stopDuringScripts() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        // Six endless calls on two script threads take three timeouts in turn, each longer in wall time on a
        // busy machine: the clients wait for them as long as the server's grace.
        var client = server.client
        client.timeout = 15
        let loops = try await ParallelRequests.start(6, client: client, target: "/fail/loop")
        try await Task.sleep(for: .milliseconds(100))
        let outcome = try await BlockingCall.run { server.stop() }
        #expect(outcome.exitCode == 0, "\(outcome)")
        for result in try await loops.results() {
            let status = try result.get().statusCode
            #expect(status == 500 || status == 503, "\(status)")
        }
    }

    @Test("while endless scripts run, static exchanges and other scripts answer at once")
    func othersGoOn() async throws {
        let (tree, server) = try await Self.serve()
        defer { tree.remove() }
        defer { server.stop() }
        // Four endless calls on two script threads take two timeouts in turn, longer in wall time on a busy
        // machine: their clients wait up to 15 s.
        var patient = server.client
        patient.timeout = 15
        let loops = try await ParallelRequests.start(4, client: patient, target: "/fail/loop")
        try await Task.sleep(for: .milliseconds(100))
        let staticAnswer = try await server.client.timed("GET", "/static")
        #expect(try staticAnswer.get().text == "static")
        #expect(staticAnswer.elapsed < .milliseconds(200), "a static answer waited \(staticAnswer.elapsed)")
        let results = try await loops.results()
        for result in results {
            let response = try result.get()
            #expect(response.statusCode == 500)
            #expect(result.elapsed < .seconds(15), "bounded by the timeout: \(result.elapsed)")
        }
        #expect(try await server.client.get("/fine").text == "fine")
    }
}
