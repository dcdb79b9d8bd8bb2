import Glibc

extension ForwardedExchange {
    /// Takes `bytes` of the answer unless `highWater` bytes already wait (the transfer then stops receiving,
    /// and they come again once the client has taken enough).
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard answer.count < Self.highWater else {
            receivingPaused = true
            return false
        }
        answer.append(bytes)
        wake()
        return true
    }

    /// No more bytes come: the answer is complete, or (`broken`) cut short.
    func finishAnswer(broken: Bool) {
        answerEnded = true
        answerBroken = broken
        wake()
    }

    /// Bytes may be ready, or the answer's end: resumes the connection if a read suspended it.
    func wake() {
        guard parked else { return }
        parked = false
        connection.resume()
    }

    /// Every read gives `how` from now on (`.endOfBody` or `.broken`); the first end stands.
    func end(_ how: BodyRead) {
        if ending == nil { ending = how }
        wake()
    }

    /// The whole answer, in memory from `malloc` (for `HTTPResponse(takingMalloced:)`), when it has all
    /// arrived, is not held back and has at most `limit` bytes (to be sent in one piece); nil otherwise.
    func takeWholeBody(limit: Int) -> UnsafeMutableRawBufferPointer? {
        guard answerEnded, !answerBroken, !holdsBackEnd, answer.count <= limit else { return nil }
        return answer.takeAll()
    }

    /// The bytes ready from `position` on (at most the buffer's room), the answer's end, or nil when nothing
    /// is ready yet. A transfer stopped for want of room receives again once the client has taken enough.
    func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        var limit = Int.max
        if holdsBackEnd, let answerSize {
            limit = Int(clamping: answerSize > position + 1 ? answerSize - position - 1 : 0)
        }
        let count = answer.read(into: buffer, limit: limit)
        if receivingPaused, answer.count <= Self.lowWater {
            receivingPaused = false
            lane.unpause(self)
        }
        if count > 0 { return .bytes(count) }
        if answerBroken { return .broken }
        if answerEnded, !holdsBackEnd { return .endOfBody }
        return nil
    }
}
