/// One response of an exchange's sequence, validated and ready to serve.
public struct ConfiguredResponse: Sendable, Equatable {
    public let statusCode: Int
    /// The exchange's own headers, in file order.
    public let headers: [HTTPHeader]
    public let body: ResponseBody
    /// The response's own delay; nil means the global delay applies.
    public let delay: ResponseDelay?
    /// The way the connection fails instead of (or, for `truncatedBody`, during) the answer; nil for none.
    public let fault: ResponseFault?
    /// With `"template": true`, the body and header values compiled as templates, rendered for every
    /// request in place of `headers` and `body`; nil for a response sent as configured.
    public let template: ResponseTemplate?
    /// `javascript` / `javascript_file`: the answer is computed per request (§12); status, headers and
    /// body are then unused.
    public let script: ResponseScript?

    public init(
        statusCode: Int = 200, headers: [HTTPHeader] = [], body: ResponseBody = .none, delay: ResponseDelay? = nil, fault: ResponseFault? = nil,
        template: ResponseTemplate? = nil, script: ResponseScript? = nil
    ) {
        self.fault = fault
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.delay = delay
        self.template = template
        self.script = script
    }

    /// `Content-Type` derived from the body, used when the exchange's headers do not name one.
    public var derivedContentType: String? {
        if let name = body.fileName { return ContentType.forFile(name) }
        switch body {
        case .inline(.string): return ContentType.plainText
        case .inline: return ContentType.json
        case .none, .file: return nil
        }
    }

    /// The headers to send, in precedence order: the exchange's own, the type derived from the body,
    /// then the global ones — each name only from the first source that has it.
    public func effectiveHeaders(global: [HTTPHeader]) -> [HTTPHeader] {
        effectiveHeaders(own: headers, global: global)
    }

    /// As `effectiveHeaders(global:)`, with `own` in place of the exchange's own headers (a template's,
    /// rendered).
    public func effectiveHeaders(own: [HTTPHeader], global: [HTTPHeader]) -> [HTTPHeader] {
        var result = own
        if let type = derivedContentType, !result.contains(named: "Content-Type") {
            result.append(HTTPHeader(name: "Content-Type", value: type))
        }
        guard !global.isEmpty else { return result }
        let own = Set(result.map { $0.name.lowercased() })
        result += global.filter { !own.contains($0.name.lowercased()) }
        return result
    }
}
