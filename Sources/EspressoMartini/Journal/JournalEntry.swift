/// One request as the admin API's journal shows it.
public struct JournalEntry: Sendable, Equatable {
    /// How much of a request body the journal keeps.
    public static let bodyLimit = 64 * 1024

    public let time: String
    public let method: String
    public let path: String
    /// The raw query string without `?`, `""` when there is none.
    public let query: String
    /// In arrival order; repeated names already joined by `, `.
    public let headers: [HTTPHeader]
    /// The first `bodyLimit` bytes of the body.
    public let body: [UInt8]
    public let bodySize: Int
    /// The exchange's route pattern and the 0-based response position, when an exchange answered.
    public let route: String?
    public let response: Int?
    public let status: Int

    public init(
        time: String, method: String, path: String, query: String, headers: [HTTPHeader], body: [UInt8],
        bodySize: Int, route: String?, response: Int?, status: Int
    ) {
        self.time = time
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodySize = bodySize
        self.route = route
        self.response = response
        self.status = status
    }

    public var json: JSONValue {
        .object([
            JSONMember(key: "time", value: .string(time)),
            JSONMember(key: "method", value: .string(method)),
            JSONMember(key: "path", value: .string(path)),
            JSONMember(key: "query", value: .string(query)),
            JSONMember(key: "headers", value: .object(headers.map { JSONMember(key: $0.name, value: .string($0.value)) })),
            JSONMember(key: "body", value: .string(String(decoding: body, as: UTF8.self))),  // invalid bytes become U+FFFD
            JSONMember(key: "body_size", value: .integer(Int64(bodySize))),
            JSONMember(key: "route", value: route.map(JSONValue.string) ?? .null),
            JSONMember(key: "response", value: response.map { .integer(Int64($0)) } ?? .null),
            JSONMember(key: "status", value: .integer(Int64(status))),
        ])
    }

    /// Joins repeated header names with `, `, keeping the order in which names first appear.
    public static func joiningRepeated(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for header in headers {
            if values[header.name] == nil { order.append(header.name) }
            values[header.name, default: []].append(header.value)
        }
        return order.map { HTTPHeader(name: $0, value: values[$0]!.joined(separator: ", ")) }
    }
}
