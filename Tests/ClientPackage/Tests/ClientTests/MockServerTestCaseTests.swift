import EspressoMartiniClient
import Foundation
import XCTest

/// `MockServerTestCase`: one server for the class, a fresh session for each test.
final class MockServerTestCaseTests: MockServerTestCase {
    override class var exchanges: [NetworkExchange] {
        [
            NetworkExchange(
                request: .init(method: .get, path: "api/v1/exports/{id}"),
                responses: [.init(status: 202), .init(status: 200)])
        ]
    }

    /// The server each test saw, to show they share one.
    nonisolated(unsafe) private static var baseURLs: Set<URL> = []

    func testEachTestHasItsOwnSession() async throws {
        try await checkAFreshSession()
    }

    func testEachTestHasItsOwnSessionAgain() async throws {
        try await checkAFreshSession()
    }

    private func checkAFreshSession() async throws {
        Self.baseURLs.insert(server.baseURL)
        XCTAssertEqual(Self.baseURLs.count, 1)
        XCTAssertNotNil(server.sessionName)
        let first = try await Fixture.get(server, "/api/v1/exports/e-1").status
        let second = try await Fixture.get(server, "/api/v1/exports/e-1").status
        XCTAssertEqual([first, second], [202, 200])
        try await server.verify(.get, "/api/v1/exports/{id}", count: .exactly(2))
    }
}

/// A class serving a tree instead of exchanges.
final class MockServerTestCaseTreeTests: MockServerTestCase {
    override class var requestsFolder: String? { Fixture.tree }

    func testItServesTheTree() async throws {
        XCTAssertEqual(server.requestsFolder, Fixture.tree)
        let answer = try await Fixture.get(server, "/api/v1/orders/1")
        XCTAssertTrue(answer.text.contains("pending"))
    }
}
