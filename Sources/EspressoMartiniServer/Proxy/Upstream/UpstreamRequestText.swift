import EspressoMartini
import Glibc

/// What a forwarded request says to the target, written once per request into one buffer that a transfer
/// keeps and refills (nothing is allocated per request once it is large enough), in one of two styles:
/// - `.curl`, as libcurl reads it: the URL, then `Name: value` lines, each ending in a zero byte (`Name;` for
///   an empty value; `Name:` keeps libcurl from adding a header of its own); libcurl writes the request line,
///   `Host` and the body's framing;
/// - `.http`, the request's head as it goes on the wire: the request line, `Host`, the header lines, the
///   body's framing and the empty line, each ending in CR LF.
final class UpstreamRequestText {
    enum Style {
        case curl
        case http
    }

    let style: Style
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity = 1024
    private(set) var count = 0
    /// Where each header line starts in `bytes`.
    private(set) var lineStarts: [Int] = []
    /// Values kept aside to be copied into a later line (`keep`, `appendKept`).
    private var kept: [UInt8] = []

    init(style: Style) {
        self.style = style
        bytes = .allocate(capacity: capacity)
        lineStarts.reserveCapacity(32)
        kept.reserveCapacity(256)
    }

    deinit { bytes.deallocate() }

    /// The request as written, valid until the next change.
    var written: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: bytes, count: count) }

    /// Starts the next request, keeping the room: its request target follows (`METHOD /base` for `.http`, the
    /// URL up to the target's base path for `.curl`).
    func start(method: String, parts: ForwardedRequestParts) {
        count = 0
        lineStarts.removeAll(keepingCapacity: true)
        kept.removeAll(keepingCapacity: true)
        switch style {
        case .curl:
            parts.urlPrefix.withUnsafeBytes { append($0) }
        case .http:
            append(method)
            append(byte: UInt8(ascii: " "))
            parts.basePath.withUnsafeBytes { append($0) }
        }
    }

    /// Ends the request target (the path and query appended after `start`).
    func endTarget(parts: ForwardedRequestParts) {
        switch style {
        case .curl:
            append(byte: 0)
        case .http:
            append(" HTTP/1.1\r\n")
            parts.hostLine.withUnsafeBytes { append($0) }
            append("\r\n")
        }
    }

    func append(_ source: UnsafeRawBufferPointer) {
        reserve(source.count)
        if let base = source.baseAddress {
            (bytes + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: source.count)
        }
        count += source.count
    }

    func append(_ source: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(source))
    }

    func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    func append(byte: UInt8) {
        reserve(1)
        bytes[count] = byte
        count += 1
    }

    /// Starts a header line.
    func startLine() {
        lineStarts.append(count)
    }

    /// Ends the current header line.
    func endLine() {
        if style == .curl {
            append(byte: 0)
        } else {
            reserve(2)
            bytes[count] = 0x0D
            bytes[count + 1] = 0x0A
            count += 2
        }
    }

    /// A whole header line, `name: value` (an empty value as each style spells it).
    func appendHeader(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        startLine()
        append(name)
        if value.isEmpty {
            append(byte: style == .curl ? UInt8(ascii: ";") : UInt8(ascii: ":"))
        } else {
            reserve(2 + value.count)
            bytes[count] = UInt8(ascii: ":")
            bytes[count + 1] = UInt8(ascii: " ")
            count += 2
            append(value)
        }
        endLine()
    }

    /// A header libcurl would add of its own (`Accept`, `Expect`) is not sent: a `Name:` line for `.curl`,
    /// nothing for `.http`, which adds none.
    func suppress(_ name: StaticString) {
        guard style == .curl else { return }
        startLine()
        append(UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        append(byte: UInt8(ascii: ":"))
        endLine()
    }

    /// Keeps `source` aside, to be copied into a later line with `appendKept`; returns where it lies.
    func keep(_ source: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = kept.count
        kept.append(contentsOf: source)
        return start..<kept.count
    }

    /// Appends a copy of the bytes kept at `range`.
    func appendKept(_ range: Range<Int>) {
        kept.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Forgets the header lines for which `drop` (given each line's bytes, without its end) says so.
    func removeLines(where drop: (UnsafeBufferPointer<UInt8>) -> Bool) {
        switch style {
        case .curl:
            lineStarts.removeAll { start in
                var end = start
                while bytes[end] != 0 { end += 1 }
                return drop(UnsafeBufferPointer(start: bytes + start, count: end - start))
            }
        case .http:
            // The lines are the head's bytes: the ones dropped are taken out, the rest moved up.
            var kept: [Int] = []
            var to = lineStarts.first ?? count
            for (index, start) in lineStarts.enumerated() {
                let end = index + 1 < lineStarts.count ? lineStarts[index + 1] : count
                guard !drop(UnsafeBufferPointer(start: bytes + start, count: end - start - 2)) else { continue }
                if to != start { memmove(bytes + to, bytes + start, end - start) }
                kept.append(to)
                to += end - start
            }
            count = to
            lineStarts = kept
        }
    }

    /// Ends the request, whose body is `body`: for `.http`, its framing and the empty line.
    func finish(body: UpstreamRequest.Body) {
        guard style == .http else { return }
        switch body {
        case .none: break
        case .length(let length):
            append("Content-Length: ")
            appendDecimal(length)
            append("\r\n")
        case .chunked:
            append("Transfer-Encoding: chunked\r\n")
        }
        append("\r\n")
    }

    private func appendDecimal(_ value: Int) {
        DecimalDigits.with(UInt64(max(0, value))) { append($0) }
    }

    private func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        while count + more > capacity { capacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: bytes, count: count)
        bytes.deallocate()
        bytes = grown
    }
}
