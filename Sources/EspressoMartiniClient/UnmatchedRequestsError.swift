import Foundation

/// What `MockServer.verifyNoUnmatchedRequests()` throws: the requests no exchange answered, each with the
/// routes most like it.
///
/// ```
/// 1 request was answered by no exchange:
///   GET /api/v1/product/7 (404); closest: GET /api/v1/products/{id}, GET /api/v1/exports/{id}
/// ```
public struct UnmatchedRequestsError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// Oldest first, each with `closest`.
    public let requests: [RecordedRequest]

    public var description: String {
        let count = requests.count == 1 ? "1 request was" : "\(requests.count) requests were"
        let lines = requests.map { request in
            let target = request.path + (request.query.isEmpty ? "" : "?" + request.query)
            let status = request.status.map { " (\($0))" } ?? ""
            let closest = request.closest ?? []
            return "  \(request.method) \(target)\(status); closest: "
                + (closest.isEmpty ? "none" : closest.joined(separator: ", "))
        }
        return (["\(count) answered by no exchange:"] + lines).joined(separator: "\n")
    }

    public var errorDescription: String? { description }
}
