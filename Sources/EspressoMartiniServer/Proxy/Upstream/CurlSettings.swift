/// How a server's transfers reach its target, the same for all of them: set once per transfer.
struct CurlSettings: Sendable {
    /// Seconds to connect (TLS handshake included).
    var connectTimeout: Double
    var verifiesTLS: Bool
    /// A PEM file of the certificate authorities to trust instead of the system's.
    var certificateAuthorities: String?
}
