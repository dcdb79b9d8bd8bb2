import EspressoMartiniClient
import Testing

/// What the API answers in every test of the suite.
let checkoutAPI = [
    NetworkExchange(
        request: .init(method: .post, path: "api/v1/orders"),
        responses: [.init(status: 201, kind: .json(["id": "A-1"]))])
]

@Suite(.mockServer(exchanges: checkoutAPI)) struct CheckoutTests {
    /// This test's own session of the suite's server: its stubs, counters and requests are its own.
    let server = MockServer.current!

    @Test func aGoldOrderIsPostedOnce() async throws {
        let app = CheckoutClient(baseURL: server.baseURL, headers: server.sessionHeaders)
        #expect(try await app.placeOrder(tier: "gold"))

        try await server.verify(
            .post, "/api/v1/orders", when: [.json("/customer/tier", .equals("gold"))], count: .exactly(1))
        try await server.verifyNoUnmatchedRequests()
    }

    @Test func aRefusedOrderIsReported() async throws {
        try await server.stub(
            NetworkExchange(request: .init(method: .post, path: "api/v1/orders"), responses: [.init(status: 503)]))
        let app = CheckoutClient(baseURL: server.baseURL, headers: server.sessionHeaders)
        #expect(try await app.placeOrder(tier: "gold") == false)
    }
}
