/// The CORS headers (doc/browsers-and-https.md) an answer gets when the server configuration has `"cors": true`, worked out
/// once per response from the headers it already has: a header the response sets itself (from its
/// exchange or the global `headers`) is never added a second time, so a tree can still say
/// `Access-Control-Allow-Origin: *` where it wants to.
public struct CORSHeaders: Sendable, Equatable {
    /// `Vary: Origin`, on every answer (with or without `Origin`) so that a cache never hands one
    /// origin's answer to another; nil when the response already varies on `Origin`.
    public let vary: HTTPHeader?
    /// Whether the request's `Origin` is echoed in `Access-Control-Allow-Origin`.
    public let echoesOrigin: Bool
    /// `Access-Control-Allow-Credentials` and `Access-Control-Expose-Headers` (the names of the response's
    /// own headers), for requests with an `Origin`: the same whatever the origin.
    public let withOrigin: [HTTPHeader]

    public static let allowOrigin = "Access-Control-Allow-Origin"

    public init(answering headers: [HTTPHeader]) {
        let varies = headers.contains { header in
            header.name.lowercased() == "vary"
                && header.value.lowercased().split(separator: ",").contains {
                    $0.trimmed == "origin" || $0.trimmed == "*"
                }
        }
        vary = varies ? nil : HTTPHeader(name: "Vary", value: "Origin")
        echoesOrigin = !headers.contains(named: Self.allowOrigin)
        var withOrigin: [HTTPHeader] = []
        if !headers.contains(named: "Access-Control-Allow-Credentials") {
            withOrigin.append(HTTPHeader(name: "Access-Control-Allow-Credentials", value: "true"))
        }
        var names: [String] = [], seen: Set<String> = []
        for header in headers
        where !header.name.lowercased().hasPrefix("access-control-") && seen.insert(header.name.lowercased()).inserted {
            names.append(header.name)
        }
        if !names.isEmpty, !headers.contains(named: "Access-Control-Expose-Headers") {
            withOrigin.append(HTTPHeader(name: "Access-Control-Expose-Headers", value: names.joined(separator: ", ")))
        }
        self.withOrigin = withOrigin
    }

    /// Every header to add to the answer of a request from `origin` (nil: the request has no `Origin`).
    public func adding(origin: String?) -> [HTTPHeader] {
        var added = vary.map { [$0] } ?? []
        guard let origin else { return added }
        if echoesOrigin { added.append(HTTPHeader(name: Self.allowOrigin, value: origin)) }
        return added + withOrigin
    }
}

private extension Substring {
    var trimmed: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
