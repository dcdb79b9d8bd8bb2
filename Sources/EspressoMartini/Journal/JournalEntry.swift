/// One request as the admin API's journal shows it.
public struct JournalEntry: Sendable, Equatable {
    /// How much of a request body the journal keeps.
    public static let bodyLimit = 64 * 1024

    public let time: Timestamp
    public let method: String
    public let path: String
    /// The path's segments as the server split them (a segment sent with `%2F` holds its `/`).
    public let segments: RequestPath
    /// The raw query string without `?`, `""` when there is none.
    public let query: String
    /// The request headers as received, packed as `name NUL value NUL …` (one copy on the request
    /// path; split and joined only when the journal is read). Filled in by `RequestJournal.record`.
    public internal(set) var packedHeaders: [UInt8]
    /// The first `bodyLimit` bytes of the body.
    public let body: [UInt8]
    public let bodySize: Int
    /// The exchange's route pattern, the variant (0-based, for an exchange with variants) and the
    /// response's 0-based position in its sequence, when an exchange answered.
    public let route: String?
    public let variant: Int?
    public let response: Int?
    /// The status sent; nil while it is not known yet (a script still running).
    public internal(set) var status: Int?
    /// The session its session header named (doc/faults-and-sessions.md); nil for the default session.
    public let session: String?
    /// The proxy's target answered it (`status` is then the target's).
    public let proxied: Bool
    /// Its place in the order of recording, set by `RequestJournal.record`.
    var ticket = 0

    public init(
        time: Timestamp, method: String, path: String, segments: RequestPath? = nil, query: String,
        packedHeaders: [UInt8] = [], body: [UInt8],
        bodySize: Int, route: String?, variant: Int? = nil, response: Int?, status: Int?, session: String? = nil,
        proxied: Bool = false
    ) {
        self.session = session
        self.proxied = proxied
        self.time = time
        self.method = method
        self.path = path
        self.segments = segments ?? RequestPath(path)
        self.query = query
        self.packedHeaders = packedHeaders
        self.body = body
        self.bodySize = bodySize
        self.route = route
        self.variant = variant
        self.response = response
        self.status = status
    }

    public var json: JSONValue {
        .object([
            JSONMember(key: "time", value: .string(time.iso8601)),
            // Empty for a request libmicrohttpd answered before its request line could be read.
            JSONMember(key: "method", value: method.isEmpty ? .null : .string(method)),
            JSONMember(key: "path", value: path.isEmpty ? .null : .string(path)),
            JSONMember(key: "query", value: .string(query)),
            JSONMember(
                key: "headers", value: .object(headers.map { JSONMember(key: $0.name, value: .string($0.value)) })),
            // Invalid bytes become U+FFFD.
            JSONMember(key: "body", value: .string(String(decoding: body, as: UTF8.self))),
            JSONMember(key: "body_size", value: .integer(Int64(bodySize))),
            JSONMember(key: "route", value: route.map(JSONValue.string) ?? .null),
            JSONMember(key: "variant", value: variant.map { .integer(Int64($0)) } ?? .null),
            JSONMember(key: "response", value: response.map { .integer(Int64($0)) } ?? .null),
            JSONMember(key: "status", value: status.map { .integer(Int64($0)) } ?? .null),
            JSONMember(key: "session", value: session.map(JSONValue.string) ?? .null),
            JSONMember(key: "proxied", value: .bool(proxied)),
        ])
    }

    /// The headers in arrival order, repeated names joined by `, ` where the name first appears.
    public var headers: [HTTPHeader] {
        let fields = packedHeaders.split(separator: 0, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var order: [String] = []
        var values: [String: [String]] = [:]
        for index in stride(from: 0, to: fields.count - 1, by: 2) {
            let header = HTTPHeader(name: fields[index], value: fields[index + 1])
            if values[header.name] == nil { order.append(header.name) }
            values[header.name, default: []].append(header.value)
        }
        return order.map { HTTPHeader(name: $0, value: values[$0]!.joined(separator: ", ")) }
    }
}
