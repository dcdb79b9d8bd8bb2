import Foundation
import Testing

/// `script_memory` against the real server: a script that allocates without end is stopped and answered
/// `500`, the server goes on, and the memory the script took goes back to the system.
@Suite("script memory")
struct ScriptMemoryTests {
    @Test(
        "three runaway allocations: each a 500 naming script_memory; the server goes on; its memory is back within 2 s and never 512 MiB above the start"
    )
    func runawayAllocations() async throws {
        let tree = try TemporaryTree(exchanges: [
            "runaway/GET/configuration.json":
                #"{"javascript": "function response(r, c) { var a = []; while (true) a.push(new Array(1000000).fill(1.5)); }"}"#,
            "fine/GET/configuration.json": #"{"javascript": "function response() { return Response.ok('fine'); }"}"#,
            "static/GET/configuration.json": #"{"body": "static"}"#,
        ])
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        #expect(try await server.client.get("/fine").text == "fine")
        let start = try #require(ProcessStatus.residentKiB(server.pid))
        for attempt in 1...3 {
            var client = server.client
            client.timeout = 30
            let response = try await client.get("/runaway")
            #expect(response.statusCode == 500, "attempt \(attempt): \(response.text)")
            let object = try #require(try response.json() as? [String: Any], "\(response.text)")
            #expect(
                object["error"] as? String
                    == "the script used more memory than script_memory (64 MiB) allows and was stopped")
            #expect(object["route"] as? String == "/runaway")
            #expect(
                try await server.client.get("/static").text == "static", "the server goes on after attempt \(attempt)")
            #expect(try await server.client.get("/fine").text == "fine")
        }
        // A sanitizer keeps freed memory in quarantine: the memory given back is measured on plain builds.
        if !Sanitizer.isActive {
            let back = ProcessStatus.wait(
                timeout: .seconds(2), { ProcessStatus.residentKiB(server.pid) }, until: { $0 - start <= 256 * 1024 })
            #expect(
                back.map { $0 - start <= 256 * 1024 } == true, "resident \(back ?? -1) KiB, \(start) KiB at the start")
            let peak = try #require(ProcessStatus.peakResidentKiB(server.pid))
            #expect(peak - start <= 512 * 1024, "peak \(peak) KiB, \(start) KiB at the start")
        }
        let logged = await server.waitForStandardErrorLine {
            $0.contains("WARNING script /runaway failed: the script used more memory than script_memory")
        }
        #expect(logged != nil)
    }

    @Test("script_memory is read from the server configuration")
    func configured() async throws {
        let tree = try TemporaryTree(
            exchanges: [
                "runaway/GET/configuration.json":
                    #"{"javascript": "function response() { const all = []; while (true) all.push(new Array(100000).fill(1.5)); }"}"#
            ],
            configuration: #"{"script_memory": 16}"#
        )
        defer { tree.remove() }
        let server = try await ServerProcess.serving(tree)
        defer { server.stop() }
        let response = try await server.client.get("/runaway")
        #expect(response.statusCode == 500)
        #expect(
            response.text.contains("the script used more memory than script_memory (16 MiB) allows and was stopped"),
            "\(response.text)")
    }
}
