/// Where a request came from, as the admin API's access rule and a forwarded request's `X-Forwarded-For`
/// need it. The server reads it from the connection only for requests that need it.
public struct ClientAddress: Sendable, Equatable {
    /// `192.0.2.7` or `2001:db8::7` (an IPv4 client of an IPv6 socket as IPv4).
    public let text: String
    /// `127.0.0.0/8` or `::1`.
    public let isLoopback: Bool

    public init(text: String, isLoopback: Bool) {
        self.text = text
        self.isLoopback = isLoopback
    }
}
