/// The real API a proxy forwards to (doc/recording.md): `https://api.example.com` or
/// `http://127.0.0.1:9000/v2`, a base path that every forwarded path is appended to.
public struct ProxyTarget: Sendable, Equatable, CustomStringConvertible {
    public let isHTTPS: Bool
    /// `api.example.com`, `127.0.0.1:9000`, `[::1]:9000`: what the forwarded `Host` header says.
    public let authority: String
    /// `""`, or a path without a trailing slash (`/v2`).
    public let basePath: String

    /// The URL as written (without a trailing slash).
    public var description: String { (isHTTPS ? "https://" : "http://") + authority + basePath }

    /// The URL a request for `target` (its path and query as sent, `/users?page=2`) is forwarded to.
    public func url(for target: String) -> String {
        description + (target.hasPrefix("/") ? target : "/" + target)
    }

    /// Reads `http://HOST[:PORT][/PATH]` or `https://…`; why not, when it is no such URL.
    public static func parse(_ text: String) -> Result<ProxyTarget, ProxyTargetProblem> {
        let lowered = text.lowercased()
        let isHTTPS: Bool
        if lowered.hasPrefix("https://") {
            isHTTPS = true
        } else if lowered.hasPrefix("http://") {
            isHTTPS = false
        } else {
            return .failure(ProxyTargetProblem(message: "'\(text)' is not an http:// or https:// URL"))
        }
        let rest = text.dropFirst(isHTTPS ? 8 : 7)
        if rest.contains("?") || rest.contains("#") {
            return .failure(
                ProxyTargetProblem(
                    message:
                        "'\(text)' has a query or a fragment; give the target's base URL only, such as https://api.example.com/v2"
                ))
        }
        let authority = rest.prefix { $0 != "/" }
        var basePath = String(rest.dropFirst(authority.count))
        while basePath.hasSuffix("/") { basePath.removeLast() }
        if authority.contains("@") {
            return .failure(
                ProxyTargetProblem(
                    message: "'\(text)' holds credentials; send them as a header with proxy 'headers' instead"))
        }
        guard !authority.isEmpty, !authority.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }),
            !basePath.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F })
        else {
            return .failure(ProxyTargetProblem(message: "'\(text)' has no host, or spaces or control characters in it"))
        }
        let host: Substring
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure(ProxyTargetProblem(message: "'\(text)' has an IPv6 address without its closing ']'"))
            }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    return .failure(
                        ProxyTargetProblem(message: "'\(text)' has something other than a port after its IPv6 address"))
                }
                port = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        if let port,
            !(port.allSatisfy { $0.isASCII && $0.isNumber } && Int(port).map { (1...65535).contains($0) } == true)
        {
            return .failure(
                ProxyTargetProblem(message: "'\(text)' has the port '\(port)'; a port is a number from 1 to 65535"))
        }
        guard !host.isEmpty, host != "[]" else { return .failure(ProxyTargetProblem(message: "'\(text)' has no host")) }
        return .success(ProxyTarget(isHTTPS: isHTTPS, authority: String(authority), basePath: basePath))
    }
}

/// Why a text is no proxy target URL.
public struct ProxyTargetProblem: Error, Sendable, Equatable {
    public let message: String
}
