import EspressoMartini

extension Sender {
    /// `inner`'s body no faster than `bytesPerSecond` (a slow network): its status and headers now, then
    /// the body through a callback response paced by the connection loop's timers (`ThrottledBody`), a large file read from
    /// disk as it goes. A stream is paced chunk by chunk; a script's answer once the script has run.
    func sendThrottled(
        _ inner: Decision, bytesPerSecond: Double, for decision: Decision, answering request: Request, state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        let status: UInt32
        let headers: [HTTPHeader]
        let bytes: ThrottledBody.Bytes
        let count: Int
        switch inner {
        case .prebuilt(let answer):
            let tree = answer.tree, slot = answer.slot
            status = answer.statusCode
            if let diskFile = tree.diskFiles[slot] {
                guard let file = ThrottledBody.file(at: diskFile.path) else {
                    return send(.unreadable(path: diskFile.path, answer), answering: request, state: state, on: connection)
                }
                (bytes, count, headers) = (file.0, file.count, diskFile.headers)
            } else {
                guard let content = answer.response.content else { preconditionFailure("a prebuilt response without content") }
                headers = content.effectiveHeaders(global: tree.globalHeaders)
                var shared = tree.built.existing(slot, as: SharedBody.self)
                if shared == nil {
                    if case .file(let name, let resolved, _) = content.body {
                        let path = tree.exchangeTree.path(ofFile: name, at: resolved, in: answer.exchange)
                        guard let file = tree.bytes(ofFileIn: slot, at: path) else {
                            return send(.unreadable(path: path, answer), answering: request, state: state, on: connection)
                        }
                        shared = tree.built.publish(SharedBody(file.buffer, owner: file.owner), in: slot)
                    } else {
                        let inline = HeapBytes(copying: content.body.inlineBytes)
                        shared = tree.built.publish(SharedBody(inline.bytes, owner: inline), in: slot)
                    }
                }
                (bytes, count) = (.memory(shared!.buffer, owner: shared!), shared!.buffer.count)
            }
        case .rendered(_, let made), .generated(let made):
            let copy = HeapBytes(copying: made.body)
            (status, headers, bytes, count) = (made.statusCode, made.headers, .memory(copy.bytes, owner: copy), copy.count)
        case .stream(let stream):
            return sendStream(stream, bytesPerSecond: bytesPerSecond, for: decision, answering: request, state: state, on: connection)
        case .script(let job):
            return run(job, bytesPerSecond: bytesPerSecond, answering: request, state: state, on: connection)
        default:
            return send(inner, answering: request, state: state, on: connection)
        }
        let body = track(ThrottledBody(
            bytes, count: count, bytesPerSecond: bytesPerSecond, connection: connection, onClose: forgetBody
        ))
        guard let response = HTTPResponse(size: UInt64(count), blockSize: body.blockSize, source: body, headers: withCORS(headers, on: connection)) else {
            return finished(decision, status: status, queued: false, answering: request, state: state)
        }
        return finished(decision, status: status, queued: connection.queue(response, status: status), answering: request, state: state)
    }
}

/// A slowed response's body, the same for every request: what its slot in the tree holds, read once (a
/// slot of a response sent slowly never holds a built response, as every request for it is slowed).
private final class SharedBody: @unchecked Sendable {
    let buffer: UnsafeRawBufferPointer
    private let owner: AnyObject

    init(_ buffer: UnsafeRawBufferPointer, owner: AnyObject) {
        self.buffer = buffer
        self.owner = owner
    }
}
