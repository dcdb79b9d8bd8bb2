/// The certificate and private key that turn the server to HTTPS (doc/browsers-and-https.md): paths to PEM files, resolved
/// against the configuration file's folder (or the current folder for command-line flags).
public struct TLSFiles: Sendable, Equatable {
    /// The server's certificate, optionally followed by its chain (intermediates).
    public var certificate: String
    /// The certificate's private key, unencrypted.
    public var key: String

    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}
