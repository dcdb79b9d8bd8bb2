import EspressoMartini

/// The status and headers a proxy's target answered with, read line by line as libcurl hands them over;
/// interim answers (`100 Continue`, `103 Early Hints`) are skipped. The lines are kept as they came, in one
/// buffer, with each header's name and value ended by a zero byte where they lie: the client's answer gets
/// them as C strings, and strings are made only for what reads headers one by one (a recording).
struct UpstreamHead: Sendable {
    var statusCode = 0
    /// The body's length when the target gave one (and no `Transfer-Encoding`), read with the headers.
    private(set) var contentLength: UInt64?
    /// The lines, each followed by a zero byte; a header's name and value ended by a zero byte too.
    private var bytes: [UInt8] = []
    /// Where each header's name and value lie in `bytes`, in order.
    private var fields: [(name: Range<Int>, value: Range<Int>)] = []
    /// Headers continued on a folded line, whose values are not contiguous in `bytes` (obsolete, rare).
    private var foldedHeaders: [HTTPHeader]?

    /// As sent, in order.
    var headers: [HTTPHeader] {
        if let foldedHeaders { return foldedHeaders }
        return fields.map { HTTPHeader(name: string(at: $0.name), value: string(at: $0.value)) }
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
            for header in clientHeaders { header.name.withCString { name in header.value.withCString { body(name, $0) } } }
            return
        }
        bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            var hopByHop = HopByHopHeaders()
            for field in fields where UnsafeBufferPointer(rebasing: buffer[field.name]).equalsLowercased(Self.connection) {
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
        let encoding = values.joined(separator: ",").split(separator: ",").map { $0.trimmingWhitespace.lowercased() }.filter { $0 != "identity" && !$0.isEmpty }
        return encoding.isEmpty ? nil : encoding.joined(separator: ", ")
    }

    private func string(at range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: $0[range], as: UTF8.self) }
    }

    private static let connection = Array("connection".utf8)
    private static let contentLengthName = Array("content-length".utf8)
    private static let transferEncoding = Array("transfer-encoding".utf8)

    /// Reads the head from its lines: the status line, headers, an empty line.
    struct Reader {
        private var head = UpstreamHead()

        /// Takes one line (with its CR LF); returns the head once its final empty line is read.
        mutating func read(_ line: UnsafeRawBufferPointer) -> UpstreamHead? {
            let bytes = Self.trimmed(line[...])
            if bytes.isEmpty {
                guard head.statusCode >= 200 else {
                    head = UpstreamHead()  // an interim answer: the final one follows
                    return nil
                }
                head.finish()
                return head
            }
            if bytes.starts(with: Self.statusLineStart) {
                head = UpstreamHead()
                head.bytes.reserveCapacity(512)
                head.fields.reserveCapacity(16)
                guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return nil }
                var code = 0
                for byte in bytes[(space + 1)...].prefix(3) where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    code = code * 10 + Int(byte - UInt8(ascii: "0"))
                }
                head.statusCode = code
            } else if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
                // A folded line continues the last header: kept as strings from now on.
                var headers = head.headers
                if let last = headers.popLast() {
                    headers.append(HTTPHeader(name: last.name, value: last.value + " " + String(decoding: bytes, as: UTF8.self)))
                    head.foldedHeaders = headers
                }
            } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                let value = Self.trimmed(bytes[(colon + 1)...])
                let start = head.bytes.count - line.startIndex
                head.bytes.append(contentsOf: line)
                head.bytes.append(0)
                head.bytes[start + colon] = 0
                let valueRange = value.isEmpty ? (start + colon)..<(start + colon) : (start + value.startIndex)..<(start + value.endIndex)
                if !value.isEmpty { head.bytes[valueRange.upperBound] = 0 }
                head.fields.append(((start + bytes.startIndex)..<(start + colon), valueRange))
                if head.foldedHeaders != nil {
                    head.foldedHeaders!.append(HTTPHeader(name: String(decoding: bytes[..<colon], as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
                }
            }
            return nil
        }

        private static let statusLineStart = Array("HTTP/".utf8)

        /// Without leading and trailing spaces, tabs, CR and LF.
        private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
            var start = bytes.startIndex
            var end = bytes.endIndex
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            return bytes[start..<end]
        }

        private static func isBlank(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
        }
    }

    /// Reads the body's length from the headers, once they are all in.
    private mutating func finish() {
        bytes.withUnsafeBufferPointer { buffer in
            var length: UInt64?
            for field in fields {
                let name = UnsafeBufferPointer(rebasing: buffer[field.name])
                if name.equalsLowercased(Self.transferEncoding) { return }
                if length == nil, name.equalsLowercased(Self.contentLengthName) {
                    length = UpstreamResponseReader.decimal(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[field.value])))
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
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }), let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
