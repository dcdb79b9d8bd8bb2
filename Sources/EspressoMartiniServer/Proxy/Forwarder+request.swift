import EspressoMartini

extension Forwarder {
    /// Writes what the target gets for `request` into `text`, in place from where libmicrohttpd keeps the
    /// request (no string is made): the request target, the target's base path followed by the request
    /// line's path and query (`rawTarget`; an absolute-form target loses its scheme and host); then the
    /// client's headers without the hop-by-hop ones, `Host` (the target's own), `Content-Length` (set from
    /// `body`) and `Expect`; `X-Forwarded-For` extended with the client, `X-Forwarded-Proto` and
    /// `X-Forwarded-Host` set; the proxy's `headers` in place of the client's of the same names; and the
    /// body's framing. libcurl is kept from adding an `Accept` or an `Expect` of its own.
    func writeRequest(
        _ request: Request, rawTarget: String, body: UpstreamRequest.Body, connection: any RequestConnection,
        into text: UpstreamRequestText
    ) {
        let parts = requestParts
        text.start(method: request.method, parts: parts)
        var target = rawTarget
        target.withUTF8 { raw in
            var path = raw[...]
            if raw.first != UInt8(ascii: "/"), let colon = raw.firstIndex(of: UInt8(ascii: ":")),
                raw[colon...].starts(with: "://".utf8)
            {
                let rest = raw[(colon + 3)...]
                path = rest.firstIndex(of: UInt8(ascii: "/")).map { raw[$0...] } ?? raw[raw.endIndex...]
            }
            if path.first != UInt8(ascii: "/") { text.append(byte: UInt8(ascii: "/")) }
            text.append(UnsafeBufferPointer(rebasing: path))
        }
        text.endTarget(parts: parts)
        // Values kept for the lines written last.
        var host: Range<Int>?
        var forwardedFor: [Range<Int>] = []
        var hopByHop = HopByHopHeaders()
        var sendsAccept = parts.configuresAccept
        request.headers.forEach { name, value in
            if name.equalsLowercased(ForwardedRequestParts.host) {
                host = text.keep(value)
            } else if name.equalsLowercased(ForwardedRequestParts.forwardedFor) {
                forwardedFor.append(text.keep(value))
            } else if ForwardedRequestParts.replaced.contains(where: { name.equalsLowercased($0) })
                || HopByHopHeaders.isAlwaysHopByHop(name)
                || parts.configuredNames.contains(where: { name.equalsLowercased($0) })
            {
                if name.equalsLowercased(ForwardedRequestParts.connection) { hopByHop.addConnection(value) }
            } else {
                if name.equalsLowercased(ForwardedRequestParts.accept) { sendsAccept = true }
                text.appendHeader(name: name, value: value)
            }
        }
        if hopByHop.namesHeaders {
            text.removeLines { line in
                let name = line.firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ";") } ?? line.endIndex
                return hopByHop.contains(UnsafeBufferPointer(rebasing: line[..<name]))
            }
            ForwardedRequestParts.accept.withUnsafeBufferPointer { accept in
                if hopByHop.contains(accept) { sendsAccept = parts.configuresAccept }
            }
        }
        text.startLine()
        text.append("X-Forwarded-For: ")
        for kept in forwardedFor {
            text.appendKept(kept)
            text.append(", ")
        }
        if !connection.withClientAddressText({ text.append($0) }) { text.append("unknown") }
        text.endLine()
        text.startLine()
        parts.forwardedProtoLine.withUnsafeBytes { text.append($0) }
        text.endLine()
        if let host {
            text.startLine()
            text.append("X-Forwarded-Host: ")
            text.appendKept(host)
            text.endLine()
        }
        for header in parts.configured {
            header.name.withUnsafeBufferPointer { name in
                header.value.withUnsafeBufferPointer { text.appendHeader(name: name, value: $0) }
            }
        }
        if !sendsAccept { text.suppress("Accept") }
        if body != .none { text.suppress("Expect") }
        text.finish(body: body)
    }
}
