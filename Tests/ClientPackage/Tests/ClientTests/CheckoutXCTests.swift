import EspressoMartiniClient
import XCTest

final class CheckoutXCTests: MockServerTestCase {
    /// What the API answers in every test of the class.
    override class var exchanges: [NetworkExchange] {
        [
            NetworkExchange(
                request: .init(method: .post, path: "api/v1/orders"),
                responses: [.init(status: 201, kind: .json(["id": "A-1"]))])
        ]
    }

    func testAGoldOrderIsPostedOnce() async throws {
        let app = CheckoutClient(baseURL: server.baseURL, headers: server.sessionHeaders)
        let placed = try await app.placeOrder(tier: "gold")
        XCTAssertTrue(placed)

        try await server.verify(
            .post, "/api/v1/orders", when: [.json("/customer/tier", .equals("gold"))], count: .exactly(1))
        try await server.verifyNoUnmatchedRequests()
    }

    func testARefusedOrderIsReported() async throws {
        try await server.stub(
            NetworkExchange(request: .init(method: .post, path: "api/v1/orders"), responses: [.init(status: 503)]))
        let app = CheckoutClient(baseURL: server.baseURL, headers: server.sessionHeaders)
        let placed = try await app.placeOrder(tier: "gold")
        XCTAssertFalse(placed)
    }
}
