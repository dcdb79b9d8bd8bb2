import EspressoMartini

/// The status and headers a proxy's target answered with, read by `UpstreamResponseReader` from the bytes
/// (the client of its own) or line by line as libcurl hands them over (`Reader`); interim answers (`100
/// Continue`, `103 Early Hints`) are skipped. The header lines are kept as they came, in one buffer, with each
/// header's name and value ended by a zero byte where they lie: the client's answer gets them as C strings,
/// and strings are made only for what reads headers one by one (a recording).
struct UpstreamHead: Sendable {
    var statusCode = 0
    /// The body's length when the target gave one (and no `Transfer-Encoding`), read with the headers.
    var contentLength: UInt64?
    /// The header lines, each followed by a zero byte; a header's name and value ended by a zero byte too.
    private var bytes: [UInt8] = []
    /// Where each header's name and value lie in `bytes`, in order.
    private var fields: [(name: Range<Int>, value: Range<Int>)] = []
    /// Headers continued on a folded line, whose values are not contiguous in `bytes` (obsolete, rare).
    private var foldedHeaders: [HTTPHeader]?

    init() {}

    /// A head with `statusCode`, its headers to come (`addHeader`).
    init(statusCode: Int) {
        self.statusCode = statusCode
        bytes.reserveCapacity(512)
        fields.reserveCapacity(16)
    }

    /// Adds the header line `line` (without its line end, not starting with a blank) whose name ends at
    /// `colon`: its bytes are copied once, and its name and value (without surrounding blanks) each ended by
    /// a zero byte.
    mutating func addHeader(_ line: UnsafeRawBufferPointer, colon: Int) {
        var valueStart = colon + 1, valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart,
            line[valueEnd - 1] == 0x20 || line[valueEnd - 1] == 0x09 || line[valueEnd - 1] == 0x0D
        { valueEnd -= 1 }
        let start = bytes.count
        bytes.append(contentsOf: line)
        bytes.append(0)
        bytes[start + colon] = 0
        let value =
            valueStart == valueEnd ? (start + colon)..<(start + colon) : (start + valueStart)..<(start + valueEnd)
        if !value.isEmpty { bytes[value.upperBound] = 0 }
        fields.append(((start)..<(start + colon), value))
        if foldedHeaders != nil {
            foldedHeaders!.append(
                HTTPHeader(
                    name: string(at: start..<(start + colon)),
                    value: bytes.withUnsafeBufferPointer { HeaderBytes.value($0[value]) }))
        }
    }

    /// A folded line (starting with a blank) continues the last header: kept as strings from now on.
    mutating func continueHeader(_ line: UnsafeRawBufferPointer) {
        var headers = self.headers
        guard let last = headers.popLast() else { return }
        let text = String(decoding: line, as: UTF8.self).trimmingWhitespace
        headers.append(HTTPHeader(name: last.name, value: last.value + " " + text))
        foldedHeaders = headers
    }

    /// Whether any header line holds `text` (a search of the head's bytes, no strings made).
    func mentions(_ text: [UInt8]) -> Bool {
        guard let first = text.first, bytes.count >= text.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var at = 0
            while at + text.count <= buffer.count {
                if buffer[at] == first, buffer[at..<(at + text.count)].elementsEqual(text) { return true }
                at += 1
            }
            return false
        }
    }

    /// What the header lines take as sent (each with its line end).
    var headerBytes: Int {
        foldedHeaders.map { $0.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } }
            ?? bytes.count + fields.count
    }

    /// As sent, in order.
    var headers: [HTTPHeader] {
        if let foldedHeaders { return foldedHeaders }
        return fields.map { field in
            HTTPHeader(
                name: string(at: field.name),
                value: bytes.withUnsafeBufferPointer { HeaderBytes.value($0[field.value]) })
        }
    }

    /// What the client gets: every header but the hop-by-hop ones and `Content-Length`, which libmicrohttpd
    /// sets from the body it sends (the same length: the body passes as it came).
    var clientHeaders: [HTTPHeader] {
        let hopByHop = HopByHopHeaders(in: headers)
        return headers.filter { !hopByHop.contains($0.name) && !$0.isNamed("content-length") }
    }

    /// Calls `body` with the name and value of each of the `clientHeaders` as C strings, without making
    /// strings; valid during the call only.
    func forEachClientHeader(_ body: (_ name: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>) -> Void) {
        if foldedHeaders != nil {
            for header in clientHeaders {
                header.name.withCString { name in header.value.withCString { body(name, $0) } }
            }
            return
        }
        bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var hopByHop = HopByHopHeaders()
            for field in fields
            where UnsafeBufferPointer(rebasing: buffer[field.name]).equalsLowercased(Self.connection) {
                hopByHop.addConnection(UnsafeBufferPointer(rebasing: buffer[field.value]))
            }
            for field in fields {
                let name = UnsafeBufferPointer(rebasing: buffer[field.name])
                if hopByHop.contains(name) || name.equalsLowercased(Self.contentLengthName) { continue }
                body(base + field.name.lowerBound, base + field.value.lowerBound)
            }
        }
    }

    /// The value of `Content-Encoding`, in lower case and trimmed; nil without one (or `identity`).
    var contentEncoding: String? {
        let values = headers.filter { $0.isNamed("content-encoding") }.map { $0.value }
        let encoding = values.joined(separator: ",").split(separator: ",").map { $0.trimmingWhitespace.lowercased() }
            .filter { $0 != "identity" && !$0.isEmpty }
        return encoding.isEmpty ? nil : encoding.joined(separator: ", ")
    }

    private func string(at range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
    }

    private static let connection = Array("connection".utf8)
    private static let contentLengthName = Array("content-length".utf8)
    private static let transferEncoding = Array("transfer-encoding".utf8)

    /// Where the name of the header line `line` ends (its colon); nil when the line is no header: no colon,
    /// an empty name, or a blank in it (RFC 9112 §5.1).
    static func nameEnd(of line: UnsafeRawBufferPointer) -> Int? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
            !line[..<colon].contains(where: { $0 == 0x20 || $0 == 0x09 })
        else { return nil }
        return colon
    }

    /// Why the target's answer is refused for the line `line`.
    static func notAHeader(_ line: UnsafeRawBufferPointer) -> String {
        let start = String(decoding: line.prefix(40), as: UTF8.self)
        return "a line of the head is not a header: \"\(start)\(line.count > 40 ? "…" : "")\""
    }

    /// Reads the head from its lines, as libcurl hands them over: the status line, headers, an empty line.
    struct Reader {
        private var head = UpstreamHead()
        /// Why the head is malformed, once a line showed it (the head is then never complete).
        private(set) var malformed: String?

        /// Takes one line (with its CR LF); returns the head once its final empty line is read.
        mutating func read(_ line: UnsafeRawBufferPointer) -> UpstreamHead? {
            guard malformed == nil else { return nil }
            var end = line.count
            while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
            let content = UnsafeRawBufferPointer(rebasing: line[..<end])
            if content.isEmpty {
                guard head.statusCode >= 200 else {
                    head = UpstreamHead()  // an interim answer: the final one follows
                    return nil
                }
                head.readLength()
                return head
            }
            if content.starts(with: Self.statusLineStart) {
                var code = 0
                if let space = content.firstIndex(of: UInt8(ascii: " ")) {
                    for byte in content[(space + 1)...].prefix(3)
                    where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                        code = code * 10 + Int(byte - UInt8(ascii: "0"))
                    }
                }
                head = UpstreamHead(statusCode: code)
            } else if content[0] == UInt8(ascii: " ") || content[0] == UInt8(ascii: "\t") {
                head.continueHeader(content)
            } else if let colon = UpstreamHead.nameEnd(of: content) {
                head.addHeader(content, colon: colon)
            } else if malformed == nil {
                malformed = UpstreamHead.notAHeader(content)
            }
            return nil
        }

        private static let statusLineStart = Array("HTTP/".utf8)
    }

    /// Reads the body's length from the headers, once they are all in.
    mutating func readLength() {
        bytes.withUnsafeBufferPointer { buffer in
            var length: UInt64?
            for field in fields {
                let name = UnsafeBufferPointer(rebasing: buffer[field.name])
                if name.equalsLowercased(Self.transferEncoding) { return }
                if length == nil, name.equalsLowercased(Self.contentLengthName) {
                    length = UpstreamResponseReader.decimal(
                        UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[field.value])))
                }
            }
            contentLength = length
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingWhitespace: String {
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }),
            let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })
        else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
