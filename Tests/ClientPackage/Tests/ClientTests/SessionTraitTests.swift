import EspressoMartiniClient
import Foundation
import Testing

/// An export job polled twice: `202`, then `200`.
let exportJob = NetworkExchange(
    request: .init(method: .get, path: "api/v1/exports/{id}"), responses: [.init(status: 202), .init(status: 200)])

/// The servers the suite's tests saw: one, if they share it.
private let suiteServers = ServersSeen()

final class ServersSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var urls: Set<URL> = []

    /// How many servers have been seen, `url` included.
    func see(_ url: URL) -> Int {
        lock.withLock {
            urls.insert(url)
            return urls.count
        }
    }
}

/// The `.mockServer` trait: one server for the suite, a fresh session for each test case, in parallel.
@Suite(.mockServer(exchanges: [exportJob])) struct SessionTraitTests {
    let server: MockServer

    init() throws {
        server = try #require(MockServer.current)
    }

    @Test(arguments: 0..<12) func eachTestCaseHasItsOwnSession(number: Int) async throws {
        #expect(suiteServers.see(server.baseURL) == 1, "one server for the suite")
        #expect(server.sessionName?.hasPrefix("eachTestCaseHasItsOwnSession") == true)
        #expect(try await Fixture.get(server, "/api/v1/exports/e-\(number)").status == 202, "its own counters")
        #expect(try await Fixture.get(server, "/api/v1/exports/e-\(number)").status == 200)
        try await server.stub(
            NetworkExchange(
                request: .init(method: .get, path: "api/v1/me"), response: .init(kind: .string("\(number)"))))
        #expect(try await Fixture.get(server, "/api/v1/me").text == "\(number)", "its own stub")
        try await server.verify(.get, "/api/v1/exports/{id}", count: .exactly(2))
        try await server.verify(.get, "/api/v1/me", count: .exactly(1))
        try await server.verifyNoUnmatchedRequests()
    }

    @Test func testsOfTheSuiteShareOneServer() async throws {
        #expect(suiteServers.see(server.baseURL) == 1)
        let everyone = MockServer(baseURL: server.baseURL)
        #expect(try await everyone.reload() == 1, "the suite's tree, written from its exchanges")
        #expect(server.requestsFolder?.hasSuffix("/network-exchanges") == true)
    }

    @Suite struct Nested {
        @Test func aNestedSuiteUsesTheOuterServer() async throws {
            let server = try #require(MockServer.current)
            #expect(suiteServers.see(server.baseURL) == 1)
            #expect(try await Fixture.get(server, "/api/v1/exports/x").status == 202)
        }
    }
}

@Test(.mockServer(exchanges: [exportJob])) func aTestByItselfGetsAServerOfItsOwn() async throws {
    let server = try #require(MockServer.current)
    #expect(server.sessionName != nil)
    #expect(try await Fixture.get(server, "/api/v1/exports/x").status == 202)
}

@Test func withoutTheTraitThereIsNoCurrentServer() {
    #expect(MockServer.current == nil)
}
