import EspressoMartini

extension Sender {
    /// Breaks the connection on purpose (doc/faults-and-sessions.md): a reset, a close without a byte, or
    /// the status and headers with the full `Content-Length`, then half the body (rounded down), then a
    /// close. Journaled and logged with status 0; never slowed.
    func fail(
        _ fault: ResponseFault, _ answer: ExchangeAnswer, for decision: Decision, answering request: Request,
        state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        switch fault {
        case .connectionReset:
            connection.reset()
            return finished(decision, status: 0, queued: false, answering: request, state: state)
        case .emptyResponse:
            return finished(decision, status: 0, queued: false, answering: request, state: state)
        case .truncatedBody:
            guard answer.response.content != nil else {
                return finished(decision, status: 0, queued: false, answering: request, state: state)
            }
            let (body, headers) = ConfiguredBody.of(answer)
            let half: KnownBody
            switch body {
            case .unreadable: return finished(decision, status: 0, queued: false, answering: request, state: state)
            case .memory(let buffer, let owner):
                half = KnownBody(.memory(buffer, owner: owner), count: buffer.count, cutAfter: buffer.count / 2)
            case .disk(let descriptor, let size):
                half = KnownBody(.file(descriptor: descriptor), count: size, cutAfter: size / 2)
            }
            return deliver(
                .source(half, size: UInt64(half.count), blockSize: 16 * 1024), status: answer.statusCode,
                headers: headers, pacedAt: nil, reporting: 0,
                for: decision, answering: request, state: state, on: connection
            )
        }
    }
}
