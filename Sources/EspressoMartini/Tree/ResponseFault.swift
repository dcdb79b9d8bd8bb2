/// A broken network on purpose (doc/faults-and-sessions.md): instead of its answer, the response's connection fails, after any
/// delay. Counted as a call, logged and journaled with status 0.
public enum ResponseFault: String, Sendable, CaseIterable {
    /// The connection is reset (TCP RST) without any answer: the client's read fails with "connection reset".
    case connectionReset = "connection_reset"
    /// The connection is closed without a byte sent.
    case emptyResponse = "empty_response"
    /// The status line and headers go out with the full `Content-Length`, then half the body (rounded
    /// down), then the connection is closed.
    case truncatedBody = "truncated_body"

    public static let names = allCases.map(\.rawValue)
}
