/// Which clients may use the admin API without its token (doc/admin-api.md).
public enum AdminAccess: String, Sendable, Equatable {
    /// Clients on a loopback address only (`127.0.0.0/8`, `::1`): a phone on the LAN reaches the mocks, not
    /// the journal or `reload`.
    case loopback
    /// Every client (a trusted network).
    case any
}
