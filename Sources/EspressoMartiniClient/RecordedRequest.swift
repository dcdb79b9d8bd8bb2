import Foundation

/// One request of the server's journal, as `GET /__espressomartini/requests` lists it (doc/admin-api.md).
public struct RecordedRequest: Sendable, Equatable, Decodable {
    /// When it arrived, ISO 8601 UTC with milliseconds.
    public let time: String
    public let method: String
    /// Percent-decoded, without the query.
    public let path: String
    /// The raw query string without `?`, `""` when there is none.
    public let query: String
    /// Repeated names joined by `, `; names as the app sent them (`header(_:)` finds one in any case).
    public let headers: [String: String]
    /// The first 64 KiB of the body as text.
    public let body: String
    /// The whole body's size in bytes.
    public let bodySize: Int
    /// The route pattern of the exchange that answered; nil when none did.
    public let route: String?
    public let variant: Int?
    public let response: Int?
    /// The status sent; 0 for a fault.
    public let status: Int?
    /// The session its session header named; nil for the default session.
    public let session: String?
    /// For a request no exchange answered, listed with `unmatchedRequests()`: the routes most like it
    /// (`GET /api/v1/products/{id}`).
    public let closest: [String]?

    enum CodingKeys: String, CodingKey {
        case time, method, path, query, headers, body, route, variant, response, status, session, closest
        case bodySize = "body_size"
    }

    /// The value of the header `name`, in any case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The body parsed as JSON; nil when it is not JSON.
    public var bodyJSON: Any? {
        try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed])
    }
}
