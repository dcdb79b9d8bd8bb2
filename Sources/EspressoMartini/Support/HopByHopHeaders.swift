/// The headers that describe one connection, not the message (RFC 9110 §7.6.1), which a proxy neither
/// forwards nor records: `Connection`, `Keep-Alive`, `TE`, `Trailer`, `Upgrade`, `Transfer-Encoding`,
/// every `Proxy-*` header, and those the `Connection` header names.
public struct HopByHopHeaders: Sendable {
    private static let always: Set<String> = ["connection", "keep-alive", "te", "trailer", "upgrade", "transfer-encoding"]

    /// The names (in lower case) a message's `Connection` headers list.
    private let named: Set<String>

    /// For a message with `headers`.
    public init(in headers: [HTTPHeader]) {
        var named: Set<String> = []
        for header in headers where header.name.lowercased() == "connection" {
            for token in header.value.split(separator: ",") {
                named.insert(String(token.filter { $0 != " " && $0 != "\t" }).lowercased())
            }
        }
        self.named = named
    }

    /// Whether the header `name` (any case) is one of them.
    public func contains(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return Self.always.contains(lowered) || lowered.hasPrefix("proxy-") || named.contains(lowered)
    }
}
