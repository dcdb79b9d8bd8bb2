extension NetworkExchange {
    /// One answer: a response object of `configuration.json` (doc/tree.md).
    ///
    /// ```swift
    /// .init(status: 201, headers: ["Location": "/api/v1/user/7"], kind: .json(user), delay: 0.2)
    /// ```
    public struct Response: Sendable {
        /// `status_code`, 200 to 599.
        public var status: Int
        /// `headers`; a name given more than once is a repeated header (`Set-Cookie`). A `Content-Type` here
        /// wins over the one the kind gives.
        public var headers: Headers
        /// The body. A `204` or `304` has none: its kind is not sent.
        public var kind: Kind
        /// `delay`: the wait before answering; nil for the server's global delay.
        public var delay: Delay?
        /// `fault`: the connection fails on purpose instead of answering (doc/faults-and-sessions.md).
        public var fault: Fault?
        /// `template`: the body and the header values are Mustache templates rendered for every request
        /// (doc/templates.md), such as `"{{request.pathParameters.id}}"`.
        public var template: Bool

        public init(
            status: Int = 200, headers: Headers = [:], kind: Kind = .empty, delay: Delay? = nil, fault: Fault? = nil,
            template: Bool = false
        ) {
            self.status = status
            self.headers = headers
            self.kind = kind
            self.delay = delay
            self.fault = fault
            self.template = template
        }
    }
}
