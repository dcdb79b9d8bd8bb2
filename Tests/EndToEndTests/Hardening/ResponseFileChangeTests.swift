import Foundation
import Glibc
import Testing

extension HardeningTests {
    /// Response files changed on disk while the server runs. Files kept in memory (up to 2 MiB while the
    /// tree's total allows, read by the first request for them) change with the next reload; the others
    /// are opened for each request, so what a request gets is the file as it is then.
    @Suite("response files changed on disk")
    struct ResponseFileChangeTests {
        /// Well above the largest file kept in memory: sent from disk for every request.
        static let largeSize = 16 * 1024 * 1024

        static func path(_ tree: TemporaryTree, _ relative: String) -> String {
            tree.url.appendingPathComponent("network-exchanges/" + relative).path
        }

        /// Replaces a file the way editors and deploy scripts do: a new file (a new inode) renamed over it.
        static func replace(_ path: String, with bytes: [UInt8]) throws {
            let temporary = (path as NSString).deletingLastPathComponent + "/.replacement-\(UUID().uuidString)"
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else {
                throw ServerProcessError(description: "rename: \(String(cString: strerror(errno)))")
            }
        }

        /// Rewrites a file in place: one open with O_TRUNC, one write.
        static func rewrite(_ path: String, with bytes: [UInt8]) throws {
            let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw ServerProcessError(description: "open: \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else {
                throw ServerProcessError(description: "wrote \(written) of \(bytes.count) bytes")
            }
        }

        @Test(
            "a large file deleted after the tree was loaded is a clean 500 with a JSON error; everything else is served, and the file again once it is back",
            arguments: [false, true])
        func deletedLargeFile(watch: Bool) async throws {
            let tree = try TemporaryTree(
                exchanges: [
                    "big/GET/configuration.json": #"{"response_file": "big.bin"}"#,
                    "big/GET/big.bin": .bytes([0]),
                    "ping/GET/configuration.json": #"{"body": "pong"}"#,
                ],
                configuration: #"{"watch": \#(watch)}"#
            )
            defer { tree.remove() }
            let file = Self.path(tree, "big/GET/big.bin")
            try #require(truncate(file, off_t(Self.largeSize)) == 0)  // sparse: no time or disk spent
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let client = server.client
            #expect(try await client.head("/big").contentLength == Self.largeSize)

            try #require(unlink(file) == 0)
            if watch { try await Task.sleep(for: .milliseconds(700)) }  // the reload fails; the tree in service stays
            let response = try await client.get("/big")
            #expect(response.statusCode == 500)
            #expect(response.header("Content-Type") == "application/json")
            let error = try #require(try response.json() as? [String: String])
            #expect(error["error"]?.contains("cannot be read") == true, "\(response.text)")
            #expect(try await client.get("/ping").text == "pong")

            let back = TestBytes.pseudoRandom(count: 3 * 1024 * 1024 + 5, seed: 5)
            try Self.replace(file, with: back)
            if watch { try await Task.sleep(for: .milliseconds(700)) }
            let again = try await client.get("/big")
            #expect(again.statusCode == 200)
            #expect(again.body == back)
            #expect(server.stop().exitCode == 0)
        }

        @Test(
            "a file deleted after the start: a small one was read with the tree and is served on; a 100 KiB one, read by its first request, is a clean 500 until it is back",
            arguments: [false, true])
        func deletedFileKeptInMemory(watch: Bool) async throws {
            let medium = TestBytes.pseudoRandom(count: 100 * 1024, seed: 7)
            let tree = try TemporaryTree(
                exchanges: [
                    "small/GET/configuration.json": #"{"response_file": "small.json"}"#,
                    "small/GET/small.json": #"{"small":true}"#,
                    "medium/GET/configuration.json": #"{"response_file": "medium.bin"}"#,
                    "medium/GET/medium.bin": .bytes(medium),
                ],
                configuration: #"{"watch": \#(watch)}"#
            )
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let client = server.client

            try #require(unlink(Self.path(tree, "small/GET/small.json")) == 0)
            try #require(unlink(Self.path(tree, "medium/GET/medium.bin")) == 0)
            if watch { try await Task.sleep(for: .milliseconds(700)) }  // the reload fails; the tree in service stays
            #expect(try await client.get("/small").text == #"{"small":true}"#)
            let unread = try await client.get("/medium")
            #expect(unread.statusCode == 500)
            let error = try #require(try unread.json() as? [String: String])
            #expect(error["error"]?.hasSuffix("/medium/GET/medium.bin cannot be read") == true, "\(unread.text)")

            try Self.replace(Self.path(tree, "small/GET/small.json"), with: Array("new".utf8))
            try Self.replace(Self.path(tree, "medium/GET/medium.bin"), with: medium)
            if watch { try await Task.sleep(for: .milliseconds(700)) }  // a good tree again: swapped in
            #expect(try await client.get("/medium").body == medium)
            #expect(try await client.get("/small").text == (watch ? "new" : #"{"small":true}"#))
            #expect(server.stop().exitCode == 0)
        }

        @Test(
            "a large file replaced by rename is sent as exactly the new bytes with their Content-Length; a download already running keeps the old ones"
        )
        func replacedLargeFile() async throws {
            let first = TestBytes.pseudoRandom(count: Self.largeSize, seed: 1)
            let tree = try TemporaryTree(
                exchanges: [
                    "big/GET/configuration.json": #"{"response_file": "big.bin"}"#, "big/GET/big.bin": .bytes(first),
                ],
                configuration: #"{"watch": false}"#
            )
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            var client = server.client
            client.timeout = 15
            let file = Self.path(tree, "big/GET/big.bin")

            let second = TestBytes.pseudoRandom(count: 12 * 1024 * 1024 + 7, seed: 2)
            let inFlight = try await BlockingCall.run { [client] in
                let connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
                defer { connection.close() }
                try connection.write(client.requestBytes("GET", "/big"))
                let start = try connection.readAtLeast(1024 * 1024)  // the download is under way
                try Self.replace(file, with: second)
                return try HTTPResponse(raw: start + connection.readToEnd())
            }
            #expect(inFlight.contentLength == first.count)
            #expect(
                inFlight.body == first,
                "the download running during the rename got \(inFlight.body.count) bytes, not the old file")

            let afterRename = try await client.get("/big")
            #expect(afterRename.contentLength == second.count)
            #expect(afterRename.body == second)
            // Smaller than the memory limits now, but chosen at load time: still read from disk per request.
            let third = TestBytes.pseudoRandom(count: 100 * 1024 + 3, seed: 3)
            try Self.replace(file, with: third)
            let afterSecondRename = try await client.get("/big")
            #expect(afterSecondRename.contentLength == third.count)
            #expect(afterSecondRename.body == third)
            #expect(server.stop().exitCode == 0)
        }

        @Test(
            "a small file changed with watch on, in place or by rename: each reload serves exactly the new bytes, never a mix or a step back"
        )
        func changedSmallFile() async throws {
            /// Version k: 8 KiB, every byte naming k, so that a mix of two versions cannot pass for either.
            func version(_ k: Int) -> [UInt8] {
                Array("version \(k)\n".utf8) + [UInt8](repeating: UInt8(ascii: "a") + UInt8(k), count: 8 * 1024)
            }
            let tree = try TemporaryTree(
                exchanges: [
                    "small/GET/configuration.json": #"{"response_file": "small.txt"}"#,
                    "small/GET/small.txt": .bytes(version(0)),
                ],
                configuration: #"{"watch": true}"#
            )
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let client = server.client
            let file = Self.path(tree, "small/GET/small.txt")
            let versions = (0...6).map(version)

            let poller = RepeatedRequests(client: client, target: "/small")
            var servedWithin: [Duration?] = []
            for k in 1...6 {
                if k % 2 == 1 {
                    try Self.rewrite(file, with: versions[k])
                } else {
                    try Self.replace(file, with: versions[k])
                }
                let changed = ContinuousClock.now
                var served: Duration?
                while served == nil && ContinuousClock.now - changed < .seconds(10) {
                    if try await client.get("/small").body == versions[k] { served = ContinuousClock.now - changed }
                    try await Task.sleep(for: .milliseconds(20))
                }
                servedWithin.append(served)
                try await Task.sleep(for: .milliseconds(300))  // past the reload's 150 ms of quiet
            }
            let (answers, errors) = try await BlockingCall.run { try poller.stop() }

            #expect(
                servedWithin.allSatisfy { $0 != nil }, "changes served after \(servedWithin) (nil: not within 10 s)")
            #expect(errors.isEmpty, "\(errors.count) polls failed: \(errors.prefix(3))")
            let seen = answers.map { answer in versions.firstIndex(of: answer.body) ?? -1 }
            #expect(answers.allSatisfy { $0.statusCode == 200 && $0.contentLength == $0.body.count })
            #expect(
                !seen.contains(-1),
                "\(seen.filter { $0 == -1 }.count) of \(seen.count) answers were no version at all (a mix or a partial file)"
            )
            #expect(
                zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "an answer went back to an older version: \(seen)")
            #expect(seen.last == 6)
            #expect(server.stop().exitCode == 0)
        }

        @Test(
            "a file truncated and written 400 ms later (an editor saving slowly) is never served half-written: the reload waits for the writer to close it"
        )
        func slowRewrite() async throws {
            let old = Array("old version".utf8), new = Array("new version".utf8)
            let tree = try TemporaryTree(
                exchanges: [
                    "slow/GET/configuration.json": #"{"response_file": "slow.txt"}"#, "slow/GET/slow.txt": .bytes(old),
                ],
                configuration: #"{"watch": true}"#
            )
            defer { tree.remove() }
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let file = Self.path(tree, "slow/GET/slow.txt")

            let poller = RepeatedRequests(client: server.client, target: "/slow")
            let descriptor = open(file, O_WRONLY | O_TRUNC | O_CLOEXEC)
            try #require(descriptor >= 0)
            try await Task.sleep(for: .milliseconds(400))  // past the reload's 150 ms of quiet
            #expect(new.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == new.count)
            close(descriptor)
            let written = ContinuousClock.now
            while try await server.client.get("/slow").body != new && ContinuousClock.now - written < .seconds(3) {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await Task.sleep(for: .milliseconds(100))
            let (answers, errors) = try await BlockingCall.run { try poller.stop() }

            #expect(errors.isEmpty, "\(errors.count) polls failed: \(errors.prefix(3))")
            let bodies = answers.map(\.body)
            #expect(
                bodies.allSatisfy { $0 == old || $0 == new },
                "\(bodies.filter { $0 != old && $0 != new }.count) answers were neither version")
            #expect(bodies.last == new)
            #expect(server.stop().exitCode == 0)
        }

        /// The one case that cannot be protected: a file sent from disk and truncated in place while it is
        /// being sent. The server has promised its Content-Length and cannot take it back; it stops sending
        /// and libmicrohttpd closes the connection once `connection_timeout` has passed with nothing to send.
        @Test(
            "a large file truncated in place while it is sent ends the answer short of its Content-Length, the connection is closed after connection_timeout, and the server carries on"
        )
        func truncatedWhileSent() async throws {
            let size = 32 * 1024 * 1024
            let tree = try TemporaryTree(
                exchanges: [
                    "big/GET/configuration.json": #"{"response_file": "big.bin"}"#,
                    "big/GET/big.bin": .bytes([0]),
                    "ping/GET/configuration.json": #"{"body": "pong"}"#,
                ],
                configuration: #"{"watch": false, "connection_timeout": 2}"#
            )
            defer { tree.remove() }
            let file = Self.path(tree, "big/GET/big.bin")
            try #require(truncate(file, off_t(size)) == 0)
            let server = try await ServerProcess.serving(tree)
            defer { server.stop() }
            let client = server.client

            let (raw, closedAfter) = try await BlockingCall.run { () -> ([UInt8], Duration) in
                let connection = try HTTPConnection(host: client.host, port: client.port, timeout: 10)
                defer { connection.close() }
                try connection.write(client.requestBytes("GET", "/big"))
                let start = try connection.readAtLeast(256 * 1024)
                guard truncate(file, 0) == 0 else { throw ServerProcessError(description: "truncate failed") }
                let truncated = ContinuousClock.now
                let rest = try connection.readToEnd()
                return (start + rest, ContinuousClock.now - truncated)
            }
            let response = try HTTPResponse(raw: raw)
            #expect(response.statusCode == 200)
            #expect(response.contentLength == size)
            #expect(response.body.count < size, "the whole file arrived although it was truncated")
            #expect(closedAfter < .seconds(6), "the connection was closed \(closedAfter) after the truncation")
            #expect(try await client.get("/ping").text == "pong")
            #expect(try await client.get("/big").contentLength == 0)
            #expect(server.stop().exitCode == 0)
        }
    }
}
