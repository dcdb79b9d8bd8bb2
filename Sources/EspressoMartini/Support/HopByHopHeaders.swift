/// The headers that describe one connection, not the message (RFC 9110 §7.6.1), which a proxy neither
/// forwards nor records: `Connection`, `Keep-Alive`, `TE`, `Trailer`, `Upgrade`, `Transfer-Encoding`,
/// every `Proxy-*` header, and those the `Connection` header names.
public struct HopByHopHeaders: Sendable {
    private static let always = ["connection", "keep-alive", "te", "trailer", "upgrade", "transfer-encoding"]

    /// The names (in lower case) a message's `Connection` headers list; most messages have none.
    private let named: [String]

    /// For a message with `headers`.
    public init(in headers: [HTTPHeader]) {
        var named: [String] = []
        for header in headers where header.isNamed("connection") {
            for token in header.value.split(separator: ",") {
                named.append(String(token.filter { $0 != " " && $0 != "\t" }).lowercased())
            }
        }
        self.named = named
    }

    /// Whether the header `name` (any case) is one of them.
    public func contains(_ name: String) -> Bool {
        if Self.always.contains(where: { HTTPHeader.name(name, equalsLowercased: $0) }) { return true }
        if name.utf8.count > 6, HTTPHeader.name(String(name.utf8.prefix(6))!, equalsLowercased: "proxy-") { return true }
        return named.contains { HTTPHeader.name(name, equalsLowercased: $0) }
    }
}
