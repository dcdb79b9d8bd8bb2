/// One response of an exchange's sequence, validated and ready to serve.
public struct ConfiguredResponse: Sendable, Equatable {
    public let statusCode: Int
    /// The exchange's own headers, in file order.
    public let headers: [HTTPHeader]
    public let body: ResponseBody
    /// The response's own delay in seconds; nil means the global delay applies.
    public let delay: Double?
    /// `javascript` / `javascript_file`: the answer is computed per request (§12); status, headers and
    /// body are then unused.
    public let script: ResponseScript?

    public init(statusCode: Int = 200, headers: [HTTPHeader] = [], body: ResponseBody = .none, delay: Double? = nil, script: ResponseScript? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.delay = delay
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
        var result = headers
        if let type = derivedContentType, !result.contains(named: "Content-Type") {
            result.append(HTTPHeader(name: "Content-Type", value: type))
        }
        guard !global.isEmpty else { return result }
        let own = Set(result.map { $0.name.lowercased() })
        result += global.filter { !own.contains($0.name.lowercased()) }
        return result
    }
}
