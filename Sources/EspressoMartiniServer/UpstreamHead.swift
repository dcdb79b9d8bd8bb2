import EspressoMartini

/// The status and headers a proxy's target answered with, read line by line as libcurl hands them over;
/// interim answers (`100 Continue`, `103 Early Hints`) are skipped.
struct UpstreamHead: Sendable {
    var statusCode = 0
    /// As sent, in order.
    var headers: [HTTPHeader] = []
    /// The body's length when the target gave one (and no `Transfer-Encoding`), read with the headers.
    private(set) var contentLength: UInt64?

    /// What the client gets: every header but the hop-by-hop ones and `Content-Length`, which libmicrohttpd
    /// sets from the body it sends (the same length: the body passes as it came).
    var clientHeaders: [HTTPHeader] {
        let hopByHop = HopByHopHeaders(in: headers)
        return headers.filter { !hopByHop.contains($0.name) && !$0.isNamed("content-length") }
    }

    /// The value of `Content-Encoding`, in lower case and trimmed; nil without one (or `identity`).
    var contentEncoding: String? {
        let values = headers.filter { $0.isNamed("content-encoding") }.map { $0.value }
        let encoding = values.joined(separator: ",").split(separator: ",").map { $0.trimmingWhitespace.lowercased() }.filter { $0 != "identity" && !$0.isEmpty }
        return encoding.isEmpty ? nil : encoding.joined(separator: ", ")
    }

    /// Reads the head from its lines: the status line, headers, an empty line.
    struct Reader {
        private var head = UpstreamHead()

        /// Takes one line (with its CR LF); returns the head once its final empty line is read. Reads bytes,
        /// making one string per name and value.
        mutating func read(_ line: UnsafeRawBufferPointer) -> UpstreamHead? {
            let bytes = Self.trimmed(line[...])
            if bytes.isEmpty {
                guard head.statusCode >= 200 else {
                    head = UpstreamHead()  // an interim answer: the final one follows
                    return nil
                }
                if !head.headers.contains(where: { $0.isNamed("transfer-encoding") }) {
                    head.contentLength = head.headers.first { $0.isNamed("content-length") }.flatMap { UInt64($0.value) }
                }
                return head
            }
            if bytes.starts(with: "HTTP/".utf8) {
                head = UpstreamHead()
                guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return nil }
                var code = 0
                for byte in bytes[(space + 1)...].prefix(3) where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    code = code * 10 + Int(byte - UInt8(ascii: "0"))
                }
                head.statusCode = code
            } else if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t"), let last = head.headers.popLast() {
                head.headers.append(HTTPHeader(name: last.name, value: last.value + " " + String(decoding: bytes, as: UTF8.self)))  // a folded line
            } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: bytes[..<colon], as: UTF8.self)
                head.headers.append(HTTPHeader(name: name, value: String(decoding: Self.trimmed(bytes[(colon + 1)...]), as: UTF8.self)))
            }
            return nil
        }

        /// Without leading and trailing spaces, tabs, CR and LF.
        private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
            let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
            guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else {
                return bytes[bytes.startIndex..<bytes.startIndex]
            }
            return bytes[first...last]
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
