import EspressoMartini

/// A `"stream"` answer's body (doc/streams-and-networks.md): each chunk rendered and written, as one
/// write, once its delay has passed. Delays count from the previous chunk's due time, not from when it
/// went out, so a stream keeps its schedule (a slow network paces the bytes on top: `PacedBody`). With
/// `stream_repeat`, the first chunk follows the last until the client goes.
final class StreamBody: ArrivingBody, @unchecked Sendable {
    private let answer: StreamAnswer
    /// The chunk to send next, and when it is due (`MonotonicClock` nanoseconds).
    private var next = 0
    private var due: UInt64
    /// The chunk being written and how much of it is out.
    private var pending: [UInt8] = []
    private var written = 0

    /// The first chunk is due its delay after `start`.
    init(
        _ answer: StreamAnswer, start: UInt64, connection: any RequestConnection, watchesHangUps: Bool = true,
        onClose: (@Sendable (ArrivingBody) -> Void)?
    ) {
        self.answer = answer
        due = start + MonotonicClock.nanoseconds(answer.stream.chunks[0].delay.seconds)
        super.init(connection: connection, watchesHangUps: watchesHangUps, onClose: onClose)
    }

    override var isEndless: Bool { answer.stream.repeats }

    override func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        let chunks = answer.stream.chunks
        var now = MonotonicClock.now()
        while written == pending.count {
            if next == chunks.count {
                guard answer.stream.repeats else { return .endOfBody }
                next = 0
            }
            guard now >= due else {
                wake(after: Double(due - now) / 1_000_000_000)
                return nil
            }
            pending = answer.bytes(ofChunk: next)
            written = 0
            next += 1
            if next < chunks.count || answer.stream.repeats {
                let (later, overflow) = due.addingReportingOverflow(
                    MonotonicClock.nanoseconds(chunks[next % chunks.count].delay.seconds))
                due = overflow ? .max : later
            }
            now = MonotonicClock.now()
        }
        let count = min(buffer.count, pending.count - written)
        pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + written, byteCount: count) }
        written += count
        return .bytes(count)
    }
}
