/// One response of an exchange's sequence, validated and ready to serve: what it answers with (its kind)
/// and how that is sent (after a delay, on a slow network, or broken by a fault).
public struct ConfiguredResponse: Sendable, Equatable {
    /// What a response answers with.
    public enum Kind: Sendable, Equatable {
        /// Sent as configured, the same bytes for every request.
        case fixed(ResponseContent)
        /// `"template": true`: the content's body and header values rendered for every request.
        case template(ResponseContent, ResponseTemplate)
        /// `javascript` / `javascript_file`: the answer is computed for every request.
        case script(ResponseScript)
        /// `stream`: the content's status and headers, then chunks over time; with `"template": true`, the
        /// header values rendered for every request (the chunks hold their own templates).
        case stream(ResponseContent, ResponseStream, ResponseTemplate?)
    }

    public let kind: Kind
    /// Its delay, fault and network, when it has any.
    private let sending: ResponseSending?

    /// The response's own delay; nil means the global delay applies.
    public var delay: ResponseDelay? { sending?.delay }
    /// The way the connection fails instead of (or, for `truncatedBody`, during) the answer; nil for none.
    public var fault: ResponseFault? { sending?.fault }
    /// The network the tree gives it (its own over its variant's over its exchange's); nil for none. The
    /// server configuration's comes on top when the tree is served.
    public var network: NetworkCondition? { sending?.network }

    public init(
        _ kind: Kind, delay: ResponseDelay? = nil, fault: ResponseFault? = nil, network: NetworkCondition? = nil
    ) {
        self.kind = kind
        sending = ResponseSending.make(delay: delay, fault: fault, network: network)
    }

    /// A fixed response.
    public init(
        statusCode: Int = 200, headers: [HTTPHeader] = [], body: ResponseBody = .none, contentLength: UInt64? = nil,
        delay: ResponseDelay? = nil, fault: ResponseFault? = nil, network: NetworkCondition? = nil
    ) {
        self.init(
            .fixed(ResponseContent(statusCode: statusCode, headers: headers, body: body, contentLength: contentLength)),
            delay: delay, fault: fault, network: network)
    }

    /// The status, headers and body a fixed, templated or streamed response is configured with; nil for a
    /// script.
    public var content: ResponseContent? {
        switch kind {
        case .fixed(let content), .template(let content, _), .stream(let content, _, _): content
        case .script: nil
        }
    }

    /// The templates of a `"template": true` response (a stream's: its header values).
    public var template: ResponseTemplate? {
        switch kind {
        case .template(_, let template): template
        case .stream(_, _, let template): template
        case .fixed, .script: nil
        }
    }

    public var script: ResponseScript? {
        if case .script(let script) = kind { return script }
        return nil
    }

    public var stream: ResponseStream? {
        if case .stream(_, let stream, _) = kind { return stream }
        return nil
    }

    /// The same response on `network` (the exchange's or variant's, further out, under its own).
    func inheriting(_ outer: NetworkCondition?) -> ConfiguredResponse {
        guard let outer else { return self }
        return ConfiguredResponse(kind, delay: delay, fault: fault, network: network?.over(outer) ?? outer)
    }
}
