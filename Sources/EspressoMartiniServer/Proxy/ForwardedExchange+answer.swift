import Glibc

extension ForwardedExchange {
    /// Takes `bytes` of the answer unless `highWater` bytes already wait (the transfer then stops receiving,
    /// and they come again once the client has taken enough).
    func offer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard answer.body.count < Self.highWater else {
            answer.receivingPaused = true
            return false
        }
        answer.body.append(bytes)
        wake()
        return true
    }

    /// No more bytes come: the answer is complete, or (`broken`) cut short.
    func finishAnswer(broken: Bool) {
        answer.end = broken ? .broken : .complete
        wake()
    }

    /// Bytes may be ready, or the answer's end: resumes the connection if a read suspended it.
    func wake() {
        guard clientWait == .forBody else { return }
        clientWait = .none
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
        guard answer.end == .complete, !answer.holdsBackEnd, answer.body.count <= limit else { return nil }
        return answer.body.takeAll()
    }

    /// The bytes ready from `position` on (at most the buffer's room), the answer's end, or nil when nothing
    /// is ready yet. A transfer stopped for want of room receives again once the client has taken enough.
    func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        var limit = Int.max
        if answer.holdsBackEnd, let size = answer.size {
            limit = Int(clamping: size > position + 1 ? size - position - 1 : 0)
        }
        let count = answer.body.read(into: buffer, limit: limit)
        if answer.receivingPaused, answer.body.count <= Self.lowWater {
            answer.receivingPaused = false
            lane.unpause(self)
        }
        if count > 0 { return .bytes(count) }
        switch answer.end {
        case .broken: return .broken
        case .complete where !answer.holdsBackEnd: return .endOfBody
        default: return nil
        }
    }
}
