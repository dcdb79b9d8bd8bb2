/// The proxy's target URL in an answer's header values (`Location: http://api.internal:8000/v1/items/7`),
/// replaced by the mock's own, as nginx's `proxy_redirect default` does: a client that follows it comes back
/// to the mock, not to the target (doc/recording.md).
public struct TargetURLRewrite: Sendable, Equatable {
    /// The target's URL with its base path, without a trailing `/` (`http://api.internal:8000/v1`).
    public let targetURL: String

    public init(target: ProxyTarget) {
        var url = target.description
        while url.hasSuffix("/") { url.removeLast() }
        targetURL = url
    }

    /// Whether a header of this name may hold URLs that are rewritten (a cookie's value is the target's own).
    public static func rewrites(_ name: String) -> Bool {
        !HTTPHeader.name(name, equalsLowercased: "set-cookie")
    }

    /// `value` with every occurrence of the target's URL (where a URL may end or go on: `/`, `?`, `#`, `>`,
    /// `;`, `,`, a blank, a quote or the value's end) replaced by `mockURL`; nil when it has none.
    public func rewritten(_ value: String, to mockURL: String) -> String? {
        let target = Array(targetURL.utf8), bytes = Array(value.utf8)
        guard bytes.count >= target.count else { return nil }
        var result: [UInt8] = [], at = 0, changed = false
        while at < bytes.count {
            if bytes[at] == target[0], at + target.count <= bytes.count,
                bytes[at..<(at + target.count)].elementsEqual(target),
                at + target.count == bytes.count || Self.endsURLPart(bytes[at + target.count])
            {
                result += mockURL.utf8
                at += target.count
                changed = true
            } else {
                result.append(bytes[at])
                at += 1
            }
        }
        return changed ? String(decoding: result, as: UTF8.self) : nil
    }

    /// `headers` with the target's URL replaced by `mockURL` in each that may hold one; nil when none did.
    public func rewritten(_ headers: [HTTPHeader], to mockURL: String) -> [HTTPHeader]? {
        var changed = false
        let result = headers.map { header in
            guard Self.rewrites(header.name), let value = rewritten(header.value, to: mockURL) else { return header }
            changed = true
            return HTTPHeader(name: header.name, value: value)
        }
        return changed ? result : nil
    }

    /// The mock's URL as a client reached it: `scheme://HOST` from the request's `Host`; nil without one.
    public static func mockURL(scheme: String, host: String?) -> String? {
        guard let host, !host.isEmpty else { return nil }
        return scheme + "://" + host
    }

    private static func endsURLPart(_ byte: UInt8) -> Bool {
        "/?#>;, \"'".utf8.contains(byte)
    }
}
