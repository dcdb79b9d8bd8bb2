import EspressoMartini

/// What every request a `Forwarder` sends shares, made once as bytes: the target's URL (or its base path)
/// before the path, its `Host` line, the header lines the proxy adds, and the names whose headers the target
/// does not get from the client.
struct ForwardedRequestParts: Sendable {
    /// `https://api.example.com/v2`: the request's path and query follow (for libcurl).
    let urlPrefix: [UInt8]
    /// `/v2`, or nothing: the request's path and query follow (on the request line).
    let basePath: [UInt8]
    /// `Host: api.example.com`: the target's own.
    let hostLine: [UInt8]
    /// `X-Forwarded-Proto: http`.
    let forwardedProtoLine: [UInt8]
    /// The proxy's `headers`, and their names in lower case.
    let configured: [(name: [UInt8], value: [UInt8])]
    let configuredNames: [[UInt8]]
    /// The proxy's `headers` set `Accept`: libcurl adds none then.
    let configuresAccept: Bool

    init(proxy: ProxyConfiguration, scheme: String) {
        urlPrefix = Array(proxy.target.description.utf8)
        basePath = Array(proxy.target.basePath.utf8)
        hostLine = Array("Host: \(proxy.target.authority)".utf8)
        forwardedProtoLine = Array("X-Forwarded-Proto: \(scheme)".utf8)
        configured = proxy.headers.map { (Array($0.name.utf8), Array($0.value.utf8)) }
        configuredNames = proxy.headers.map { Array($0.name.lowercased().utf8) }
        configuresAccept = configuredNames.contains(Self.accept)
    }

    // Header names the forwarded request treats apart, in lower case.
    static let host = Array("host".utf8)
    static let accept = Array("accept".utf8)
    static let connection = Array("connection".utf8)
    static let forwardedFor = Array("x-forwarded-for".utf8)
    /// Client headers the forwarded request does not carry: libcurl sets the body's length, `Expect` is
    /// answered here, and the `X-Forwarded-*` headers are set anew.
    static let replaced = ["content-length", "expect", "x-forwarded-proto", "x-forwarded-host"].map { Array($0.utf8) }
}
