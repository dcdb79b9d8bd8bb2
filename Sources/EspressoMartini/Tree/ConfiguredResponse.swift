/// One response of an exchange's sequence, validated and ready to serve: what it answers with (its kind)
/// and how that is sent (after a delay, or broken by a fault).
public struct ConfiguredResponse: Sendable, Equatable {
    /// What a response answers with.
    public enum Kind: Sendable, Equatable {
        /// Sent as configured, the same bytes for every request.
        case fixed(ResponseContent)
        /// `"template": true`: the content's body and header values rendered for every request.
        case template(ResponseContent, ResponseTemplate)
        /// `javascript` / `javascript_file`: the answer is computed for every request.
        case script(ResponseScript)
    }

    public let kind: Kind
    /// The response's own delay; nil means the global delay applies.
    public let delay: ResponseDelay?
    /// The way the connection fails instead of (or, for `truncatedBody`, during) the answer; nil for none.
    public let fault: ResponseFault?

    public init(_ kind: Kind, delay: ResponseDelay? = nil, fault: ResponseFault? = nil) {
        self.kind = kind
        self.delay = delay
        self.fault = fault
    }

    /// A fixed response.
    public init(statusCode: Int = 200, headers: [HTTPHeader] = [], body: ResponseBody = .none, delay: ResponseDelay? = nil, fault: ResponseFault? = nil) {
        self.init(.fixed(ResponseContent(statusCode: statusCode, headers: headers, body: body)), delay: delay, fault: fault)
    }

    /// The status, headers and body a fixed or templated response is configured with; nil for a script.
    public var content: ResponseContent? {
        switch kind {
        case .fixed(let content), .template(let content, _): content
        case .script: nil
        }
    }

    public var template: ResponseTemplate? {
        if case .template(_, let template) = kind { return template }
        return nil
    }

    public var script: ResponseScript? {
        if case .script(let script) = kind { return script }
        return nil
    }
}
