import Glibc

/// Bytes waiting to go on, in the pieces they came in, each a copy in memory from `malloc`: a forwarded
/// request's body on its way to the target, a target's answer on its way to the client. A small answer
/// arrives in one piece, which goes to libmicrohttpd as it is (`takeAll`). Not locked, and not freed by
/// itself: its owner calls `removeAll()` before it goes.
struct ByteQueue {
    /// The first piece, apart so that a queue of one piece allocates no array.
    private var first: UnsafeMutableRawBufferPointer?
    private var rest: [UnsafeMutableRawBufferPointer] = []
    /// Where the first piece's unread bytes start.
    private var offset = 0
    /// Bytes queued and not read yet.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, let memory = malloc(bytes.count) else { return }
        let piece = UnsafeMutableRawBufferPointer(start: memory, count: bytes.count)
        piece.copyMemory(from: bytes)
        if first == nil { first = piece } else { rest.append(piece) }
        count += bytes.count
    }

    /// Moves up to `limit` bytes (at most the buffer's room) into `buffer`; returns how many.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer, limit: Int = .max) -> Int {
        var written = 0
        let wanted = min(buffer.count, limit, count)
        while written < wanted, let piece = first {
            let take = min(wanted - written, piece.count - offset)
            buffer.baseAddress!.advanced(by: written).copyMemory(
                from: piece.baseAddress!.advanced(by: offset), byteCount: take)
            written += take
            offset += take
            if offset == piece.count { dropFirst() }
        }
        count -= written
        return written
    }

    /// Every byte, in memory from `malloc` that the caller frees (or hands to libmicrohttpd): the one piece
    /// as it is, or the pieces copied into one; nil when that memory cannot be had. The queue is then empty.
    mutating func takeAll() -> UnsafeMutableRawBufferPointer? {
        if let piece = first, rest.isEmpty, offset == 0 {
            first = nil
            count = 0
            return piece
        }
        guard let memory = malloc(max(1, count)) else { return nil }
        let all = UnsafeMutableRawBufferPointer(start: memory, count: count)
        _ = read(into: all)
        return all
    }

    /// Frees every piece.
    mutating func removeAll() {
        while first != nil { dropFirst() }
        count = 0
    }

    private mutating func dropFirst() {
        free(first?.baseAddress)
        first = rest.isEmpty ? nil : rest.removeFirst()
        offset = 0
    }
}
