import EspressoMartini
import Glibc

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

    private struct State {
        var queue = ByteQueue()
        var ended = false
        var broken = false
        var holdsBackEnd = false
        var knownSize: UInt64?
        var paused = false
    }

    private let state = Locked(State())
    /// Called when a paused transfer may receive again; set before the answer is queued.
    var onDrained: (@Sendable () -> Void)?

    /// The body's length, as the target announced it (nil: unknown); `holdingBackEnd` keeps its end until
    /// `release`. Before any byte.
    func expect(size: UInt64?, holdingBackEnd: Bool) {
        state.withLock { state in
            state.knownSize = size
            state.holdsBackEnd = holdingBackEnd
        }
    }

    /// Takes `bytes` unless `highWater` bytes already wait (the transfer then pauses, and they come again).
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let taken = state.withLock { state in
            guard state.queue.count < Self.highWater else {
                state.paused = true
                return false
            }
            state.queue.append(bytes)
            return true
        }
        if taken { wake() }
        return taken
    }

    /// No more bytes come: the body is complete, or (`broken`) cut short.
    func finish(broken: Bool) {
        state.withLock { state in
            state.ended = true
            state.broken = broken
        }
        wake()
    }

    /// Lets the end of the body go (the recording is written, or was not made).
    func release() {
        state.withLock { $0.holdsBackEnd = false }
        wake()
    }

    /// The whole body, taken out into memory from `malloc` (for `HTTPResponse(takingMalloced:)`), when it has
    /// all arrived, is not held back and has at most `limit` bytes (to be sent in one piece); nil otherwise.
    func takeWholeBody(limit: Int) -> UnsafeMutableRawBufferPointer? {
        state.withLock { state -> UnsafeMutableRawBufferPointer? in
            guard state.ended, !state.broken, !state.holdsBackEnd, state.queue.count <= limit,
                  let memory = malloc(max(1, state.queue.count)) else { return nil }
            let bytes = UnsafeMutableRawBufferPointer(start: memory, count: state.queue.count)
            _ = state.queue.read(into: bytes)
            return bytes
        }
    }

    /// Whether the transfer waits for the client to take bytes (no time limit runs on the target then).
    var waitsForClient: Bool {
        state.withLock { $0.paused }
    }

    override func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        var drained = false
        let read = state.withLock { state -> BodyRead? in
            var limit = Int.max
            if state.holdsBackEnd, let knownSize = state.knownSize {
                limit = Int(clamping: knownSize > position + 1 ? knownSize - position - 1 : 0)
            }
            let count = state.queue.read(into: buffer, limit: limit)
            if state.paused, state.queue.count <= Self.lowWater {
                state.paused = false
                drained = true
            }
            if count > 0 { return .bytes(count) }
            if state.broken { return .broken }
            if state.ended, !state.holdsBackEnd { return .endOfBody }
            return nil
        }
        if drained { onDrained?() }
        return read
    }
}
