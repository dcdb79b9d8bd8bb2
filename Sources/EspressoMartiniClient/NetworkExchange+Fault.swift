extension NetworkExchange {
    /// How a response's connection fails on purpose (doc/faults-and-sessions.md); the raw value is `fault`'s.
    public enum Fault: String, Sendable, Hashable, CaseIterable {
        /// A TCP reset without any answer.
        case connectionReset = "connection_reset"
        /// The connection closed without a byte sent.
        case emptyResponse = "empty_response"
        /// The status and headers with the full `Content-Length`, then half the body, then the end.
        case truncatedBody = "truncated_body"
    }
}
