/// Bytes waiting to go on, in the pieces they came in: a forwarded request's body on its way to the
/// target, a target's answer on its way to the client. Not locked: its owner's lock guards it.
struct ByteQueue {
    private var pieces: [[UInt8]] = []
    /// Where the first piece's unread bytes start.
    private var offset = 0
    /// Bytes queued and not read yet.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        pieces.append(Array(bytes))
        count += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pieces.append(bytes)
        count += bytes.count
    }

    /// Moves up to `limit` bytes (at most the buffer's room) into `buffer`; returns how many.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, limit: Int = .max) -> Int {
        var written = 0
        let wanted = min(buffer.count, limit, count)
        while written < wanted {
            let piece = pieces[0]
            let take = min(wanted - written, piece.count - offset)
            piece.withUnsafeBytes { source in
                buffer.baseAddress!.advanced(by: written).copyMemory(from: source.baseAddress!.advanced(by: offset), byteCount: take)
            }
            written += take
            offset += take
            if offset == piece.count {
                pieces.removeFirst()
                offset = 0
            }
        }
        count -= written
        return written
    }

    mutating func removeAll() {
        pieces.removeAll()
        offset = 0
        count = 0
    }
}
