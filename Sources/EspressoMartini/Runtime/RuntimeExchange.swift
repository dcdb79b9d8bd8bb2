/// An exchange a test added over the admin API (`POST /__espressomartini/exchanges`, doc/admin-api.md):
/// read from its configuration by the loader's own code, served beside the tree's until it is removed,
/// for every request or for one session's.
public struct RuntimeExchange: Sendable {
    public let exchange: Exchange
    /// The session whose requests alone see it; nil: every request.
    public let session: String?

    public init(exchange: Exchange, session: String?) {
        self.exchange = exchange
        self.session = session
    }

    /// As the admin API writes it: `r12`.
    public var id: String { Self.id(exchange.runtimeID) }

    public static func id(_ number: Int) -> String { "r\(number)" }

    /// ` (session NAME)`, or ` (every session)` for a server-wide one: what `explain` says after its id.
    public var scopeDescription: String {
        session.map { " (session \($0))" } ?? " (every session)"
    }

    /// The number `id` names (`r12`: 12); nil for text that is no id.
    public static func number(ofID id: String) -> Int? {
        guard id.hasPrefix("r"), let number = Int(id.dropFirst()), number > 0 else { return nil }
        return number
    }
}
