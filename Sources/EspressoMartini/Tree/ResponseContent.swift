/// What a configured response says it sends: a status, its own headers and a body. A fixed response sends
/// it as it is; a template renders its header values and body from it for each request.
public struct ResponseContent: Sendable, Equatable {
    public let statusCode: Int
    /// The response's own headers, in file order.
    public let headers: [HTTPHeader]
    public let body: ResponseBody
    /// `content_length`: the length a HEAD or 304 answer announces for the body it stands for, not sent.
    public let contentLength: UInt64?

    public init(
        statusCode: Int = 200, headers: [HTTPHeader] = [], body: ResponseBody = .none, contentLength: UInt64? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.contentLength = contentLength
    }

    /// Sent without a body and announcing `contentLength` or no length (a 304, a HEAD answer given one):
    /// never `Content-Length: 0` for a body that is not empty.
    public var isBodiless: Bool { contentLength != nil || statusCode == 304 }

    /// `Content-Type` derived from the body, used when the response's headers do not name one.
    public var derivedContentType: String? {
        if let name = body.fileName { return ContentType.forFile(name) }
        switch body {
        case .inline(.string): return ContentType.plainText
        case .inline: return ContentType.json
        case .bytes: return ContentType.unknown
        case .none, .file: return nil
        }
    }

    /// The headers to send (`own` in place of the response's own headers: a template's, rendered), by the
    /// one precedence rule of every answer (`HTTPHeader.merging`).
    public func effectiveHeaders(own: [HTTPHeader]? = nil, global: [HTTPHeader]) -> [HTTPHeader] {
        HTTPHeader.merging(own: own ?? headers, derivedContentType: derivedContentType, global: global)
    }
}
