import Glibc

/// Reads an HTTP/1.1 answer from the bytes a connection to the target receives, as they come: its head
/// (interim `1xx` heads skipped), then its body without the transfer coding (`chunked` decoded), ending
/// where its framing says: `Content-Length`, the last chunk, no body at all (`HEAD`, `204`, `304`), or the
/// connection's end. Pure logic, for `PlainUpstreamTransfer`.
struct UpstreamResponseReader {
    /// What `read` got to.
    enum Progress: Equatable {
        /// Every byte was taken; the answer goes on.
        case needsMore
        /// The body's taker refused a piece: the bytes from `consumed` on come again later.
        case paused
        /// The answer is complete; bytes past `consumed` belong to no answer.
        case complete
        /// The bytes are no HTTP/1.1 answer.
        case malformed(String)
    }

    private enum State {
        case head
        case body(left: UInt64)
        case chunkSize
        case chunkData(left: UInt64)
        case chunkEnd
        case trailers
        case untilClose
        case complete
    }

    static let headLimit = 64 << 10

    private let answersHead: Bool
    private var state = State.head
    /// The start of a line that the bytes read so far end in the middle of.
    private var partialLine: [UInt8] = []
    private var headSize = 0
    private var statusCode = 0
    /// The head being read.
    private var head = UpstreamHead()
    private var isHTTP10 = false
    private var contentLength: UInt64?
    private var transferEncodingIsChunked: Bool?
    private var closes = false
    /// Bytes of the answer have come (a kept-alive connection closed before any can be tried again).
    private(set) var hasStarted = false
    /// Bytes of the body handed over in the last `read` (the rest of what it consumed is framing).
    private(set) var consumed = 0

    /// For an answer to a `HEAD` request (`answersHead`), which has no body whatever its headers say.
    init(answersHead: Bool) {
        self.answersHead = answersHead
    }

    /// The connection may carry another request once the answer is complete.
    var keepsAlive: Bool {
        if case .complete = state { return !closes && !isHTTP10 }
        return false
    }

    var isComplete: Bool {
        if case .complete = state { return true }
        return false
    }

    /// Reads `bytes`, handing the final head to `head` once it is whole and each piece of the body to `body`
    /// (false: not taken, stop). `consumed` then says how many bytes were taken.
    mutating func read(
        _ bytes: UnsafeRawBufferPointer, head: (UpstreamHead) -> Void, body: (UnsafeRawBufferPointer) -> Bool
    ) -> Progress {
        var at = 0
        defer { consumed = at }
        if !bytes.isEmpty { hasStarted = true }
        while at < bytes.count {
            switch state {
            case .head, .chunkSize, .trailers, .chunkEnd:
                guard let lineEnd = Self.index(of: 0x0A, in: bytes, from: at) else {
                    partialLine.append(contentsOf: bytes[at...])
                    at = bytes.count
                    if partialLine.count > Self.headLimit {
                        return .malformed("a line of the target's answer is longer than \(Self.headLimit) bytes")
                    }
                    return .needsMore
                }
                let problem: String?
                if partialLine.isEmpty {
                    problem = takeLine(UnsafeRawBufferPointer(rebasing: bytes[at...lineEnd]), head: head)
                } else {
                    partialLine.append(contentsOf: bytes[at...lineEnd])
                    let line = partialLine
                    partialLine.removeAll(keepingCapacity: true)
                    problem = line.withUnsafeBytes { takeLine($0, head: head) }
                }
                at = lineEnd + 1
                if let problem { return .malformed(problem) }
            case .body(let left), .chunkData(let left):
                let count = Int(min(left, UInt64(bytes.count - at)))
                guard body(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + count)])) else { return .paused }
                at += count
                let rest = left - UInt64(count)
                if case .body = state {
                    state = rest == 0 ? .complete : .body(left: rest)
                } else {
                    state = rest == 0 ? .chunkEnd : .chunkData(left: rest)
                }
            case .untilClose:
                guard body(UnsafeRawBufferPointer(rebasing: bytes[at...])) else { return .paused }
                at = bytes.count
            case .complete:
                return .complete
            }
        }
        if case .complete = state { return .complete }
        return .needsMore
    }

    /// The connection ended: whether the answer is then complete (its body ran to the end), or why not.
    mutating func finish() -> String? {
        switch state {
        case .untilClose:
            state = .complete
            closes = true
            return nil
        case .complete:
            return nil
        default:
            return hasStarted
                ? "the target closed the connection before its answer was complete"
                : "the target closed the connection without an answer"
        }
    }

    /// One whole line (with its LF) of the head, the chunk framing or the trailers; why the answer is
    /// malformed, if it is.
    private mutating func takeLine(_ line: UnsafeRawBufferPointer, head delivered: (UpstreamHead) -> Void) -> String? {
        var end = line.count - 1
        if end > 0, line[end - 1] == 0x0D { end -= 1 }
        let content = UnsafeRawBufferPointer(rebasing: line[..<end])
        switch state {
        case .head:
            headSize += line.count
            guard headSize <= Self.headLimit else { return "the target's head is longer than \(Self.headLimit) bytes" }
            if statusCode == 0 {
                guard let code = Self.statusCode(content) else {
                    return "the target's answer does not start with an HTTP/1 status line"
                }
                statusCode = code
                isHTTP10 = content[7] == UInt8(ascii: "0")
                head = UpstreamHead(statusCode: code)
                return nil
            }
            if content.isEmpty {
                let problem = endHead()
                if problem == nil, statusCode >= 200 {
                    head.contentLength = transferEncodingIsChunked == nil ? contentLength : nil
                    delivered(head)
                    head = UpstreamHead()
                }
                return problem
            }
            if content[0] == 0x20 || content[0] == 0x09 {
                head.continueHeader(content)
                return nil
            }
            return readHeader(content)
        case .chunkSize:
            guard let size = Self.chunkSize(content) else { return "the target sent a malformed chunk size" }
            state = size == 0 ? .trailers : .chunkData(left: size)
            return nil
        case .chunkEnd:
            guard content.isEmpty else { return "the target's chunk is longer than its size says" }
            state = .chunkSize
            return nil
        case .trailers:
            if content.isEmpty { state = .complete }
            return nil
        default:
            return nil
        }
    }

    /// The head's empty line: an interim answer gives way to the next head; a final one sets the framing.
    private mutating func endHead() -> String? {
        if statusCode < 200 {
            guard statusCode != 101 else { return "the target switched protocols, which is not forwarded" }
            statusCode = 0
            contentLength = nil
            transferEncodingIsChunked = nil
            closes = false
            return nil
        }
        if answersHead || statusCode == 204 || statusCode == 304 {
            state = .complete
        } else if let chunked = transferEncodingIsChunked {
            state = chunked ? .chunkSize : .untilClose
        } else if let contentLength {
            state = contentLength == 0 ? .complete : .body(left: contentLength)
        } else {
            state = .untilClose
        }
        return nil
    }

    /// Adds a header to the head, and notes the ones that frame the body or end the connection.
    /// Why the line is not a header, or nil once it is read.
    private mutating func readHeader(_ line: UnsafeRawBufferPointer) -> String? {
        guard let colon = UpstreamHead.nameEnd(of: line) else { return UpstreamHead.notAHeader(line) }
        head.addHeader(line, colon: colon)
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        if Self.named(name, Self.contentLengthName) {
            guard contentLength == nil else { return nil }  // the first one counts, as it does for libcurl's answers
            contentLength = Self.decimal(value)
            if contentLength == nil { closes = true }
        } else if Self.named(name, Self.transferEncodingName) {
            // The last coding decides: chunked ends the body; any other runs to the connection's end.
            let last = value.split(separator: UInt8(ascii: ",")).last.map {
                Self.trimmed(UnsafeRawBufferPointer(rebasing: $0))
            }
            transferEncodingIsChunked = last.map { Self.named($0, Self.chunkedName) } ?? false
        } else if Self.named(name, Self.connectionName) {
            for token in value.split(separator: UInt8(ascii: ","))
            where Self.named(Self.trimmed(UnsafeRawBufferPointer(rebasing: token)), Self.closeName) {
                closes = true
            }
        }
        return nil
    }

    private static let contentLengthName = Array("content-length".utf8)
    private static let transferEncodingName = Array("transfer-encoding".utf8)
    private static let connectionName = Array("connection".utf8)
    private static let chunkedName = Array("chunked".utf8)
    private static let closeName = Array("close".utf8)

    /// Where `byte` first is in `bytes` from `start` on.
    private static func index(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(byte), bytes.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// `HTTP/1.x NNN …` → NNN.
    private static func statusCode(_ line: UnsafeRawBufferPointer) -> Int? {
        guard line.count >= 12, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"),
            line[2] == UInt8(ascii: "T"),
            line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/"), line[5] == UInt8(ascii: "1"),
            line[6] == UInt8(ascii: "."),
            line[8] == UInt8(ascii: " ")
        else { return nil }
        var code = 0
        for byte in line[9..<12] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
        }
        guard code >= 100, line.count == 12 || line[12] == UInt8(ascii: " ") else { return nil }
        return code
    }

    /// A chunk's size line: hexadecimal digits, then maybe `;` and extensions.
    private static func chunkSize(_ line: UnsafeRawBufferPointer) -> UInt64? {
        var size: UInt64 = 0
        var digits = 0
        for byte in line {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: ";"), UInt8(ascii: " "), UInt8(ascii: "\t"): return digits > 0 ? size : nil
            default: return nil
            }
            guard digits < 16 else { return nil }
            size = size << 4 | UInt64(digit)
            digits += 1
        }
        return digits > 0 ? size : nil
    }

    private static func named(_ bytes: UnsafeRawBufferPointer, _ lowercased: [UInt8]) -> Bool {
        bytes.assumingMemoryBound(to: UInt8.self).equalsLowercased(lowercased)
    }

    /// The decimal number these bytes are (at most 19 digits, so it cannot overflow); nil when they are none.
    static func decimal(_ digits: UnsafeRawBufferPointer) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: UInt64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
        }
        return value
    }

    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}
