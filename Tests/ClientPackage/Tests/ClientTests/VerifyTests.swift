import EspressoMartiniClient
import Foundation
import Testing

/// `verify` and `verifyNoUnmatchedRequests`: what the server says, and the errors a failing test prints.
@Suite struct VerifyTests {
    static let orders = NetworkExchange(
        request: .init(method: .post, path: "api/v1/orders"), response: .init(status: 201))

    static func order(_ server: MockServer, tier: String) async throws {
        let body = Data(#"{"customer": {"tier": "\#(tier)"}}"#.utf8)
        #expect(try await Fixture.fetch(server, "POST", "/api/v1/orders", body: body).status == 201)
    }

    @Test func itHoldsForEachKindOfCount() async throws {
        let server = try await MockServer.start(exchanges: [Self.orders])
        defer { server.stop() }
        try await server.verify(.post, "/api/v1/orders", count: .never)
        try await Self.order(server, tier: "gold")
        try await Self.order(server, tier: "silver")

        #expect(try await server.verify(.post, "/api/v1/orders") == 2)
        let gold: [Condition] = [.json("/customer/tier", .equals("gold"))]
        #expect(try await server.verify(.post, "/api/v1/orders", when: gold, count: .exactly(1)) == 1)
        try await server.verify(.post, "/api/v1/orders", count: .atLeast(2))
        try await server.verify(.post, "/api/v1/orders", count: .atMost(2))
        try await server.verify(.get, "/api/v1/orders", count: .never)
        try await server.verify(
            .post, "/api/v1/{collection}", when: [.path("collection", "orders")], count: .exactly(2))
    }

    @Test func aFailureSaysWhatWasExpectedAndWhatCameClosest() async throws {
        let server = try await MockServer.start(exchanges: [Self.orders])
        defer { server.stop() }
        try await Self.order(server, tier: "silver")
        do {
            try await server.verify(
                .post, "/api/v1/orders", when: [.json("/customer/tier", .equals("gold"))], count: .exactly(1))
            Issue.record("verify held")
        } catch let error as VerificationError {
            #expect(error.expected == "exactly 1")
            #expect(error.count == 0)
            #expect(error.complete)
            #expect(
                error.closest == [
                    .init(
                        method: "POST", path: "/api/v1/orders", query: "",
                        mismatch: #"json "/customer/tier" is "silver", expected "gold""#)
                ])
            let lines = error.description.split(separator: "\n").map(String.init)
            #expect(lines.count == 3, "\(error)")
            #expect(
                lines.first?.hasPrefix("expected exactly 1 request POST /api/v1/orders when json") == true, "\(error)")
            #expect(lines.first?.hasSuffix("0 matched") == true, "\(error)")
            #expect(lines.dropFirst().first == "closest requests, each with the first condition it failed:")
            #expect(lines.last == #"  POST /api/v1/orders: json "/customer/tier" is "silver", expected "gold""#)
            #expect(error.localizedDescription == error.description)
        }
    }

    @Test func tooManyIsAFailureToo() async throws {
        let server = try await MockServer.start(exchanges: [Self.orders])
        defer { server.stop() }
        try await Self.order(server, tier: "gold")
        try await Self.order(server, tier: "gold")
        await #expect {
            try await server.verify(.post, "/api/v1/orders", count: .atMost(1))
        } throws: { error in
            guard let error = error as? VerificationError else { return false }
            return error.count == 2 && error.expected == "at most 1" && error.closest.isEmpty
                && !error.description.contains("closest requests")
        }
        await #expect(throws: VerificationError.self) {
            try await server.verify(.post, "/api/v1/orders", count: .never)
        }
    }

    @Test func aSessionViewVerifiesItsOwnRequests() async throws {
        let server = try await MockServer.start(exchanges: [Self.orders])
        defer { server.stop() }
        let first = server.session("run-1"), second = server.session("run-2")
        try await Self.order(first, tier: "gold")
        try await first.verify(.post, "/api/v1/orders", count: .exactly(1))
        try await second.verify(.post, "/api/v1/orders", count: .never)
        try await server.verify(.post, "/api/v1/orders", count: .exactly(1))  // the default view sees every session
    }

    @Test func aBadConditionIsRefusedInTheServersWords() async throws {
        let server = try await MockServer.start(exchanges: [Self.orders])
        defer { server.stop() }
        do {
            try await server.verify(.post, "/api/v1/orders", when: [.query("q", .regex("(unclosed"))])
            Issue.record("a regex that does not compile was taken")
        } catch let MockServerError.refused(status, message, _) {
            #expect(status == 400)
            #expect(message.hasPrefix("request body:"))
            #expect(message.contains("does not compile"))
        }
    }

    @Test func unmatchedRequestsAreListedWithTheClosestRoutes() async throws {
        let server = try await MockServer.start(exchanges: [Self.orders])
        defer { server.stop() }
        try await server.verifyNoUnmatchedRequests()
        try await Self.order(server, tier: "gold")
        try await server.verifyNoUnmatchedRequests()
        #expect(try await Fixture.get(server, "/api/v1/order?id=7").status == 404)
        do {
            try await server.verifyNoUnmatchedRequests()
            Issue.record("an unmatched request went unnoticed")
        } catch let error as UnmatchedRequestsError {
            #expect(error.requests.map(\.path) == ["/api/v1/order"])
            #expect(
                error.description == """
                    1 request was answered by no exchange:
                      GET /api/v1/order?id=7 (404); closest: POST /api/v1/orders
                    """)
        }
        try await server.session("run-1").verifyNoUnmatchedRequests()
    }
}
