import EspressoMartiniClient
import Foundation
import XCTest

/// The same library from an XCTest suite: a server per test, started in `setUp` and stopped in `tearDown`.
final class MockServerXCTests: XCTestCase {
    private var server: MockServer!

    override func setUp() async throws {
        server = try await MockServer.start(requestsFolder: Fixture.tree)
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    func testCountsTheOrdersTheAppPosted() async throws {
        try await Fixture.send(server, "POST", "/api/v1/orders", json: #"{"tier": "gold"}"#)
        try await Fixture.send(server, "POST", "/api/v1/orders", json: #"{"tier": "silver"}"#)
        let count = try await server.count(method: "POST", path: "/api/v1/orders", when: ["json": ["/tier": "gold"]])
        XCTAssertEqual(count, 1)
        let all = try await server.requests(path: "/api/v1/orders")
        XCTAssertEqual(all.map(\.status), [201, 201])
    }

    func testARefusalCarriesTheServersMessage() async throws {
        do {
            _ = try await server.requests(when: ["json": ["tier": "gold"]])
            XCTFail("a pointer without '/' was taken")
        } catch let error as MockServerError {
            guard case .refused(400, let message, _) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("'tier' is not a JSON Pointer"), message)
        }
    }
}
