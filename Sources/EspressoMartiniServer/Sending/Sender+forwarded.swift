import EspressoMartini

extension Sender {
    /// Where the body of a request decided as `decision` goes as it arrives, besides the part kept for the
    /// journal: for a forward, the exchange that carries it to the proxy's target (doc/recording.md), started
    /// now so that the body streams there (the part kept so far goes first); nil for any other decision, and
    /// for a forward that cannot start (`send` then answers why).
    func bodySink(
        for decision: Decision, answering request: Request, state: RequestState, on connection: some RequestConnection
    ) -> (any RequestBodySink)? {
        guard case .forward = decision, let forwarder else { return nil }
        let (hasBody, announcedSize) = Self.bodyFraming(on: connection)
        let body: UpstreamRequest.Body
        if state.bodyComplete {
            body = hasBody ? .length(state.bodySize) : .none
        } else {
            body = !hasBody ? .none : announcedSize.map { .length($0) } ?? .chunked
        }
        guard
            let exchange = forwarder.forward(
                request, decision: decision, rawTarget: state.target, body: body, on: connection)
        else { return nil }
        if !state.body.isEmpty { state.body.withUnsafeBytes { exchange.push($0) } }
        return exchange
    }

    /// A forwarded request once its body is all in (and again after each resume): its exchange's answer, or
    /// why there is none.
    func forward(
        _ job: ForwardJob, for decision: Decision, answering request: Request, state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        guard let exchange = state.bodySink as? ForwardedExchange else {
            let reason = forwarder == nil ? "forwarding is not set up" : "no HTTP client transfer can be made"
            return sendGenerated(
                Self.upstreamFailure(job, timedOut: false, reason: reason), pacedAt: nil, for: decision,
                answering: request, state: state, on: connection)
        }
        return answerForwarded(exchange, job: job, state: state, on: connection)
    }

    /// Whether the request has a body (`Content-Length` or `Transfer-Encoding`), and the length it announced.
    private static func bodyFraming(on connection: some RequestConnection) -> (hasBody: Bool, announcedSize: Int?) {
        if let length = contentLength.withUnsafeBufferPointer({ connection.header(named: $0) }) {
            return (true, Int(String(decoding: length, as: UTF8.self).trimmingWhitespace))
        }
        return (transferEncoding.withUnsafeBufferPointer({ connection.header(named: $0) }) != nil, nil)
    }

    private static let contentLength = Array("Content-Length".utf8CString)
    private static let transferEncoding = Array("Transfer-Encoding".utf8CString)

    /// Queues the target's answer, whose body streams to the client as it arrives, or the `502`/`504` saying
    /// why there is none; or suspends the connection until the target answers.
    private func answerForwarded(
        _ exchange: ForwardedExchange, job: ForwardJob, state: RequestState, on connection: some RequestConnection
    ) -> Bool {
        exchange.endUpload()
        guard let outcome = exchange.awaitOutcome() else { return true }
        let decision = exchange.decision, request = exchange.request
        switch outcome {
        case .head(let head):
            let globalHeaders = state.tree?.globalHeaders ?? []
            let mockURL =
                head.mentions(exchange.forwarder.targetURLBytes)
                ? TargetURLRewrite.mockURL(
                    scheme: exchange.forwarder.scheme, host: request.headers.firstValue(named: "host")) : nil
            // Without global headers, CORS or the target's URL, the target's headers go from where they were
            // read, as C strings.
            let inPlace = globalHeaders.isEmpty && !cors && mockURL == nil
            var own = inPlace ? [] : head.clientHeaders
            if let mockURL { own = exchange.forwarder.targetURL.rewritten(own, to: mockURL) ?? own }
            let headers = inPlace ? [] : withCORS(HTTPHeader.merging(own: own, global: globalHeaders), on: connection)
            let response: HTTPResponse?
            if request.method == "HEAD" || head.statusCode == 304 {
                response = HTTPResponse.bodiless(announcing: head.contentLength, headers: headers)
            } else if let whole = exchange.takeWholeBody(limit: 64 * 1024) {
                // Already all here: sent with its head in one write.
                response = HTTPResponse(takingMalloced: whole, headers: headers)
            } else {
                let size = head.contentLength
                // libmicrohttpd allocates (and zeroes) a block per response: no larger than the body needs.
                let blockSize = size.map { min(64 * 1024, max(1024, Int(clamping: $0))) } ?? 16 * 1024
                response = HTTPResponse(size: size, blockSize: blockSize, source: exchange, headers: headers)
            }
            guard let response else {
                return finished(
                    decision, status: UInt32(head.statusCode), queued: false, answering: request, state: state)
            }
            if inPlace { head.forEachClientHeader { response.add(name: $0, value: $1) } }
            let queued = connection.queue(response, status: UInt32(head.statusCode))
            return finished(decision, status: UInt32(head.statusCode), queued: queued, answering: request, state: state)
        case .failed(let failure) where failure.serverStopping:
            let made = GeneratedAnswer.error(
                503, "the server is stopping", globalHeaders: state.tree?.globalHeaders ?? [])
            return sendGenerated(made, pacedAt: nil, for: decision, answering: request, state: state, on: connection)
        case .failed(let failure):
            let made = Self.upstreamFailure(
                job, timedOut: failure.timedOut, reason: failure.reason, globalHeaders: state.tree?.globalHeaders ?? [])
            return sendGenerated(made, pacedAt: nil, for: decision, answering: request, state: state, on: connection)
        }
    }

    /// `502` `{"error": "upstream_unavailable", "target", "reason"}`, or for a timeout `504` `upstream_timeout`.
    static func upstreamFailure(
        _ job: ForwardJob, timedOut: Bool, reason: String, globalHeaders: [HTTPHeader] = []
    ) -> GeneratedAnswer {
        .json(
            timedOut ? 504 : 502,
            .object([
                JSONMember(key: "error", value: .string(timedOut ? "upstream_timeout" : "upstream_unavailable")),
                JSONMember(key: "target", value: .string(job.target.description)),
                JSONMember(key: "reason", value: .string(reason)),
            ]), globalHeaders: globalHeaders)
    }
}
