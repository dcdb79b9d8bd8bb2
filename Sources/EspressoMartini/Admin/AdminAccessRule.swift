/// Who may use the admin API (doc/admin-api.md): with a token, exactly the clients that send
/// `Authorization: Bearer TOKEN` (`401` for others, loopback ones too); without one, clients on a loopback
/// address (`403` for others) unless access is `any`.
struct AdminAccessRule: Sendable {
    let access: AdminAccess
    /// `Bearer TOKEN` as bytes, for a comparison whose time does not depend on where the bytes differ.
    private let expected: [UInt8]?

    init(access: AdminAccess, token: String?) {
        self.access = access
        expected = token.map { Array("Bearer \($0)".utf8) }
    }

    /// Why `request` is refused, nil when it may go on. A request whose client is not known is no loopback
    /// client.
    func refusal(of request: Request) -> Refusal? {
        if let expected {
            let sent = request.headers.values(named: "authorization")
            if sent.count == 1, Self.sameCredentials(Array(sent[0].utf8), expected) { return nil }
            let challenge = HTTPHeader(name: "WWW-Authenticate", value: "Bearer realm=\"espressomartini\"")
            return Refusal(
                .adminAccess, status: 401,
                message:
                    "the admin API needs 'Authorization: Bearer TOKEN' with the server configuration's admin_token",
                headers: [challenge])
        }
        if access == .any || request.client?.isLoopback == true { return nil }
        let who = request.client.map { "the client \($0.text)" } ?? "a client whose address is not known"
        return Refusal(
            .adminAccess, status: 403,
            message:
                "the admin API answers only clients on this machine (a loopback address), not \(who); set admin_token or \"admin_access\": \"any\" in the server configuration to let others in"
        )
    }

    /// `sent` equals `expected`, the scheme's case aside (`bearer` is `Bearer`), looking at every byte.
    private static func sameCredentials(_ sent: [UInt8], _ expected: [UInt8]) -> Bool {
        guard sent.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices {
            let byte =
                index < 6 && sent[index] >= UInt8(ascii: "A") && sent[index] <= UInt8(ascii: "Z")
                ? sent[index] | 0x20 : sent[index]
            let wanted = index < 6 ? expected[index] | 0x20 : expected[index]
            difference |= byte ^ wanted
        }
        return difference == 0
    }
}
