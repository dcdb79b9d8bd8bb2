/// The body of a target's answer on its way to the client: bytes arrive from the HTTP client's thread,
/// libmicrohttpd takes them on the connection's thread. At most `highWater` bytes wait here: beyond, the
/// transfer pauses its receiving until the client has taken them down to `lowWater` (then `onDrained`),
/// so an answer of any size passes in bounded memory.
///
/// While it is being recorded in spy mode, the end of the body is held back (its last byte when its length
/// is known, else its end) until the recording is written and the tree reloaded (`release`): the client's
/// next request is then answered by the tree.
final class ForwardedAnswer: ArrivingBody, @unchecked Sendable {
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    // Behind the lock of `ArrivingBody`.
    private var queue = ByteQueue()
    private var ended = false
    private var broken = false
    private var holdsBackEnd = false
    private var knownSize: UInt64?
    private var paused = false
    /// Called (under the lock) when a paused transfer may receive again; set before the answer is queued.
    var onDrained: (@Sendable () -> Void)?

    /// The body's length, as the target announced it (nil: unknown); `holdingBackEnd` keeps its end until
    /// `release`. Before any byte.
    func expect(size: UInt64?, holdingBackEnd: Bool) {
        produce {
            knownSize = size
            holdsBackEnd = holdingBackEnd
        }
    }

    /// Takes `bytes` unless `highWater` bytes already wait (the transfer then pauses, and they come again).
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        produce {
            guard queue.count < Self.highWater else {
                paused = true
                return false
            }
            queue.append(bytes)
            return true
        }
    }

    /// No more bytes come: the body is complete, or (`broken`) cut short.
    func finish(broken: Bool) {
        produce {
            ended = true
            self.broken = broken
        }
    }

    /// Lets the end of the body go (the recording is written, or was not made).
    func release() {
        produce { holdsBackEnd = false }
    }

    /// The whole body, taken out, when it has all arrived, is not held back and has at most `limit` bytes (to be
    /// sent in one piece); nil otherwise.
    func takeWholeBody(limit: Int) -> [UInt8]? {
        inspect { () -> [UInt8]? in
            guard ended, !broken, !holdsBackEnd, queue.count <= limit else { return nil }
            var bytes = [UInt8](repeating: 0, count: queue.count)
            _ = bytes.withUnsafeMutableBytes { queue.read(into: $0) }
            return bytes
        }
    }

    /// Whether the transfer waits for the client to take bytes (no time limit runs on the target then).
    var waitsForClient: Bool {
        inspect { paused }
    }

    override func readReady(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        var limit = Int.max
        if holdsBackEnd, let knownSize { limit = Int(clamping: knownSize > position + 1 ? knownSize - position - 1 : 0) }
        let count = queue.read(into: buffer, limit: limit)
        if paused, queue.count <= Self.lowWater {
            paused = false
            onDrained?()
        }
        if count > 0 { return .bytes(count) }
        if broken { return .broken }
        if ended, !holdsBackEnd { return .endOfBody }
        return nil
    }
}
