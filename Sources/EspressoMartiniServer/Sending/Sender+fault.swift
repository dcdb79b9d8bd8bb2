import EspressoMartini

extension Sender {
    /// Breaks the connection on purpose (doc/faults-and-sessions.md): a reset, a close without a byte, or
    /// the status and headers with the full `Content-Length`, then half the body, then a close. Journaled
    /// and logged with status 0.
    func fail(
        _ fault: ResponseFault, _ answer: ExchangeAnswer, for decision: Decision, answering request: Request, state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        switch fault {
        case .connectionReset:
            connection.reset()
            return finished(decision, status: 0, queued: false, answering: request, state: state)
        case .emptyResponse:
            return finished(decision, status: 0, queued: false, answering: request, state: state)
        case .truncatedBody:
            guard let content = answer.response.content else { return finished(decision, status: 0, queued: false, answering: request, state: state) }
            let tree = answer.tree
            let half: HalfBody
            if case .file(let name, let resolved, _) = content.body {
                let path = tree.exchangeTree.path(ofFile: name, at: resolved, in: answer.exchange)
                guard let file = tree.bytes(ofFileIn: answer.slot, at: path) else {
                    return finished(decision, status: 0, queued: false, answering: request, state: state)
                }
                half = HalfBody(file: file)
            } else {
                half = HalfBody(inline: content.body.inlineBytes)
            }
            let headers = withCORS(content.effectiveHeaders(global: tree.globalHeaders), on: connection)
            guard let response = HTTPResponse(size: UInt64(half.count), blockSize: 16 * 1024, source: half, headers: headers) else {
                return finished(decision, status: 0, queued: false, answering: request, state: state)
            }
            let queued = connection.queue(response, status: answer.statusCode)
            return finished(decision, status: 0, queued: queued, answering: request, state: state)
        }
    }
}

/// A body of which only the first half (rounded down) is ever sent: a file's bytes, shared, or an inline
/// body; the connection is closed after it.
private final class HalfBody: BodySource, @unchecked Sendable {
    private let file: FileBytes?
    private let inline: [UInt8]
    let count: Int
    /// How many bytes go out before the connection is closed.
    private let sent: Int

    init(file: FileBytes) {
        self.file = file
        inline = []
        count = file.count
        sent = count / 2
    }

    init(inline: [UInt8]) {
        file = nil
        self.inline = inline
        count = inline.count
        sent = count / 2
    }

    override func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        let start = Int(position)
        guard start < sent, let destination = buffer.baseAddress else { return .broken }
        let count = min(buffer.count, sent - start)
        if let file {
            destination.copyMemory(from: file.buffer.baseAddress! + start, byteCount: count)
        } else {
            inline.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + start, byteCount: count) }
        }
        return .bytes(count)
    }
}
