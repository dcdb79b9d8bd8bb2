import EspressoMartini

extension Sender {
    /// A `"stream"` answer: the status and headers now, then each chunk once it is due, through a
    /// callback response that the connection loop's timers feed (`StreamBody`); no thread waits between
    /// chunks. The access log and the journal record it when its headers are queued.
    func sendStream(
        _ stream: StreamAnswer, pacedAt pace: Double?, for decision: Decision, answering request: Request,
        state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        let body = track(StreamBody(stream, start: MonotonicClock.now(), connection: connection, onClose: forgetBody))
        // Events are small: a small block keeps a thousand open streams small too.
        return deliver(
            .source(body, size: nil, blockSize: Self.streamBlockSize), status: stream.answer.statusCode,
            headers: stream.headers, pacedAt: pace,
            for: decision, answering: request, state: state, on: connection
        )
    }

    static let streamBlockSize = 4096

    /// Keeps `body` until libmicrohttpd is done with it (made with `forgetBody` as its `onClose`), so that
    /// shut-down can end it. While the server stops, a new body is ended at once.
    func track<Body: ArrivingBody>(_ body: Body) -> Body {
        let stopping = arriving.withLock { arriving in
            arriving.bodies[ObjectIdentifier(body)] = body
            return arriving.stopping
        }
        if stopping { body.end(.endOfBody) }
        return body
    }

    /// What a tracked body runs when libmicrohttpd is done with it.
    var forgetBody: @Sendable (ArrivingBody) -> Void {
        { [arriving] body in arriving.withLock { _ = $0.bodies.removeValue(forKey: ObjectIdentifier(body)) } }
    }

    /// Ends every body still arriving (or, `endlessOnly`, those that never end by themselves: streams that
    /// repeat), as the server stops; with all of them, bodies made later are ended at once.
    func endArrivingBodies(endlessOnly: Bool) {
        let bodies = arriving.withLock { arriving in
            if !endlessOnly { arriving.stopping = true }
            return Array(arriving.bodies.values)
        }
        for body in bodies where !endlessOnly || body.isEndless { body.end(.endOfBody) }
    }
}
