import EspressoMartini

extension Sender {
    /// Queues `body` with `status` and `headers` (the CORS ones added), no faster than `pace` bytes a second
    /// when given: the one place where a slow network paces an answer, whatever made it (`PacedBody`). Then
    /// the access log and the journal hear `reported` (a fault's 0), else `status`.
    func deliver(
        _ body: OutgoingBody, status: UInt32, headers: [HTTPHeader], pacedAt pace: Double?,
        reporting reported: UInt32? = nil, for decision: Decision,
        answering request: Request, state: RequestState, on connection: some RequestConnection
    ) -> Bool {
        let headers = withCORS(headers, on: connection)
        let response: HTTPResponse?
        switch (body, pace) {
        case (.memory(let buffer, let owner), nil):
            response = HTTPResponse(sharing: buffer, owner: owner, headers: headers)
        case (.copied(let bytes), nil):
            response = HTTPResponse(copying: bytes, headers: headers)
        case (.file(let descriptor, let size), nil):
            response = HTTPResponse(fileDescriptor: descriptor, size: UInt64(size), headers: headers)
        case (.source(let source, let size, let blockSize), nil):
            response = HTTPResponse(size: size, blockSize: blockSize, source: source, headers: headers)
        case (_, let pace?):
            let inner: BodySource, size: UInt64?, blockSize: Int
            switch body {
            case .memory(let buffer, let owner):
                (inner, size, blockSize) = (
                    KnownBody(.memory(buffer, owner: owner), count: buffer.count), UInt64(buffer.count), .max
                )
            case .copied(let bytes):
                let copy = HeapBytes(copying: bytes)
                (inner, size, blockSize) = (
                    KnownBody(.memory(copy.bytes, owner: copy), count: copy.count), UInt64(copy.count), .max
                )
            case .file(let descriptor, let count):
                (inner, size, blockSize) = (KnownBody(.file(descriptor: descriptor), count: count), UInt64(count), .max)
            case .source(let source, let count, let block):
                (inner, size, blockSize) = (source, count, block)
            }
            let paced = track(
                PacedBody(inner, size: size, bytesPerSecond: pace, connection: connection, onClose: forgetBody))
            response = HTTPResponse(
                size: size, blockSize: min(blockSize, paced.blockSize), source: paced, headers: headers)
        }
        let sent = reported ?? status
        guard let response else {
            return finished(decision, status: sent, queued: false, answering: request, state: state)
        }
        return finished(
            decision, status: sent, queued: connection.queue(response, status: status), answering: request, state: state
        )
    }
}
