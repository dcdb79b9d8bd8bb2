/// `"proxy"` in the server configuration (doc/recording.md): requests the tree has no answer for (what would
/// be a `404` or a `405`) are forwarded to `target`, and with `record` written into the tree.
public struct ProxyConfiguration: Sendable, Equatable {
    public static let defaultTimeout: Double = 30

    public var target: ProxyTarget
    /// Seconds to connect and then to wait for the answer's head, once the request is sent, and at most
    /// between two pieces of its body: beyond, `504` (or the answer is cut short).
    public var timeout: Double = ProxyConfiguration.defaultTimeout
    /// Check an HTTPS target's certificate (against `certificateAuthorities`, else the system's).
    public var verifiesTLS = true
    /// A PEM file of certificate authorities trusted instead of the system's (`ca_file`), resolved against
    /// the configuration file's folder.
    public var certificateAuthorities: String?
    /// Added to every forwarded request, replacing the client's headers of the same names.
    public var headers: [HTTPHeader] = []
    /// Which requests go to the target.
    public var forwards = Forwarding.misses
    /// Forwarded answers are written into the tree: with `misses`, spy mode (the tree then answers the next
    /// identical request); with `everything`, the `record` command.
    public var records = false

    public enum Forwarding: Sendable, Equatable {
        /// Those the tree has no answer for.
        case misses
        /// Every request but the admin API's (the tree is not consulted): `record`.
        case everything
    }

    public init(target: ProxyTarget) {
        self.target = target
    }
}
