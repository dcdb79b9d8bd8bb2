import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app under test, reduced to one call: it posts an order and says whether the API took it.
struct CheckoutClient {
    let baseURL: URL
    /// Sent with every request: in a test, the mock server's session header.
    var headers: [String: String] = [:]

    func placeOrder(tier: String) async throws -> Bool {
        var request = URLRequest(url: baseURL.appendingPathComponent("api/v1/orders"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = try JSONEncoder().encode(["customer": ["tier": tier]])
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode == 201
    }
}
