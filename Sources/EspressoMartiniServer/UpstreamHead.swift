import EspressoMartini

/// The status and headers a proxy's target answered with, read line by line as libcurl hands them over;
/// interim answers (`100 Continue`, `103 Early Hints`) are skipped.
struct UpstreamHead: Sendable {
    var statusCode = 0
    /// As sent, in order.
    var headers: [HTTPHeader] = []

    /// The body's length when the target gave one (and no `Transfer-Encoding`).
    var contentLength: UInt64? {
        guard !headers.contains(named: "Transfer-Encoding") else { return nil }
        return headers.first { $0.name.lowercased() == "content-length" }.flatMap { UInt64($0.value) }
    }

    /// What the client gets: every header but the hop-by-hop ones and `Content-Length`, which libmicrohttpd
    /// sets from the body it sends (the same length: the body passes as it came).
    var clientHeaders: [HTTPHeader] {
        let hopByHop = HopByHopHeaders(in: headers)
        return headers.filter { !hopByHop.contains($0.name) && $0.name.lowercased() != "content-length" }
    }

    /// The value of `Content-Encoding`, in lower case and trimmed; nil without one (or `identity`).
    var contentEncoding: String? {
        let values = headers.filter { $0.name.lowercased() == "content-encoding" }.map { $0.value }
        let encoding = values.joined(separator: ",").split(separator: ",").map { $0.trimmingWhitespace.lowercased() }.filter { $0 != "identity" && !$0.isEmpty }
        return encoding.isEmpty ? nil : encoding.joined(separator: ", ")
    }

    /// Reads the head from its lines: the status line, headers, an empty line.
    struct Reader {
        private var head = UpstreamHead()

        /// Takes one line (with its CR LF); returns the head once its final empty line is read.
        mutating func read(_ line: UnsafeRawBufferPointer) -> UpstreamHead? {
            var bytes = line[...]
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
            if bytes.isEmpty {
                guard head.statusCode >= 200 else {
                    head = UpstreamHead()  // an interim answer: the final one follows
                    return nil
                }
                return head
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.hasPrefix("HTTP/") {
                head = UpstreamHead()
                let parts = text.split(separator: " ", maxSplits: 2)
                head.statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            } else if let first = text.first, first == " " || first == "\t", let last = head.headers.popLast() {
                head.headers.append(HTTPHeader(name: last.name, value: last.value + " " + text.trimmingWhitespace))  // a folded line
            } else if let colon = text.firstIndex(of: ":") {
                head.headers.append(HTTPHeader(name: String(text[..<colon]), value: text[text.index(after: colon)...].trimmingWhitespace))
            }
            return nil
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
