/// One HTTP request as the core sees it: what `Decider` decides on, and what conditions, templates and
/// scripts read. The server builds it from libmicrohttpd; tests build it directly. Each part
/// is kept as received and parsed only when something asks for it, so a static exchange's request costs
/// no more than its path.
public struct Request: Sendable {
    /// As sent: `GET`, `get`, `BREW`.
    public let method: String
    /// The method a folder can name, spelled exactly (methods are case-sensitive); nil for any other.
    public let knownMethod: HTTPMethod?
    /// The path, already percent-decoded, without the query.
    public let path: String
    /// The path's segments (empty ones dropped), read in place for routing; split before decoding, so a
    /// segment sent with `%2F` holds its `/` (`path` shows it decoded like the rest).
    public let segments: RequestPath
    /// The query string without `?`, as received (not decoded); `""` when there is none.
    public let rawQuery: String
    /// In arrival order.
    public let headers: RequestHeaders
    /// The body, or its first part, for exchanges that need it; nil when it was not kept (static
    /// exchanges keep none). The server adds it once it is in.
    public var body: [UInt8]?
    /// The whole body's size in bytes, kept or not.
    public var bodySize: Int
    /// The session its session header names (doc/faults-and-sessions.md); nil for the default session.
    public var session: Session?
    /// Why its session header names no session (`400`); nil when it names one or there is none.
    public var sessionRefusal: String?
    /// Where it came from; read by the server only where it matters (the admin API), nil elsewhere.
    public var client: ClientAddress?
    /// The runtime exchanges in service when the request arrived (doc/admin-api.md); nil while there are none.
    public var runtime: RuntimeRoutes?

    public init(
        method: String, path: String, segments: RequestPath? = nil, rawQuery: String = "",
        headers: RequestHeaders = RequestHeaders([]), body: [UInt8]? = nil, bodySize: Int? = nil
    ) {
        self.init(
            method: method, knownMethod: HTTPMethod(requestMethod: method), path: path, segments: segments,
            rawQuery: rawQuery, headers: headers, body: body, bodySize: bodySize ?? body?.count ?? 0
        )
    }

    /// For a server that has already read the method (it reads it from bytes, without a String). `segments`
    /// from the path as sent (`RequestPath(sent:)`) when it holds `%2F`; nil splits the decoded `path`.
    public init(
        method: String, knownMethod: HTTPMethod?, path: String, segments: RequestPath? = nil, rawQuery: String,
        headers: RequestHeaders, body: [UInt8]?, bodySize: Int, session: Session? = nil
    ) {
        self.method = method
        self.knownMethod = knownMethod
        self.path = path
        self.segments = segments ?? RequestPath(path)
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
        self.bodySize = bodySize
        self.session = session
    }

    /// The query parameters, percent-decoded, `+` as a space, repeated names in order.
    public var queryParameters: URLEncodedForm { URLEncodedForm(parsing: rawQuery) }

    /// The values `route` captures from this request's path: each `{name}` or `:name` segment with the
    /// request's segment at its place. A route's capture names belong to the route, not to the trie's edge:
    /// `GET /users/{id}` and `DELETE /users/{userId}` share one edge and name their capture differently.
    public func pathParameters(of route: RoutePattern) -> [PathParameter] {
        segments.withSegments { values in
            var parameters: [PathParameter] = []
            for (index, segment) in route.segments.enumerated() where index < values.count {
                guard let name = segment.parameterName else { continue }
                parameters.append(PathParameter(name: name, value: String(decoding: values[index], as: UTF8.self)))
            }
            return parameters
        }
    }
}
