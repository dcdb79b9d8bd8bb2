/// A response made for one request, as bytes: the `400`/`404`/`405` errors, the admin API's answers, a
/// template rendered, a script's answer.
public struct GeneratedAnswer: Sendable, Equatable {
    public let statusCode: UInt32
    /// In sending order, the global headers included.
    public let headers: [HTTPHeader]
    public let body: [UInt8]

    public init(statusCode: UInt32, headers: [HTTPHeader], body: [UInt8]) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// `{"error": message}` as JSON.
    public static func error(
        _ status: UInt32, _ message: String, extraHeaders: [HTTPHeader] = [], globalHeaders: [HTTPHeader]
    ) -> GeneratedAnswer {
        json(
            status, .object([JSONMember(key: "error", value: .string(message))]), extraHeaders: extraHeaders,
            globalHeaders: globalHeaders)
    }

    /// `value` as compact JSON; the headers as a configured response would have them (`extraHeaders`, the
    /// JSON type, then the global ones).
    public static func json(
        _ status: UInt32, _ value: JSONValue, extraHeaders: [HTTPHeader] = [], globalHeaders: [HTTPHeader]
    ) -> GeneratedAnswer {
        let content = ResponseContent(statusCode: Int(status), headers: extraHeaders, body: .inline(value))
        return GeneratedAnswer(
            statusCode: status, headers: content.effectiveHeaders(global: globalHeaders), body: content.body.inlineBytes
        )
    }

    /// No body: `204` and the like.
    public static func empty(_ status: UInt32, globalHeaders: [HTTPHeader]) -> GeneratedAnswer {
        GeneratedAnswer(statusCode: status, headers: globalHeaders, body: [])
    }
}
