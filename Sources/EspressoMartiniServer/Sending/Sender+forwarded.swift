import EspressoMartini

extension Sender {
    /// Starts forwarding the request to the proxy's target (doc/recording.md). While the client's body is
    /// still coming (the decision was made at its headers), the server pushes each piece into the exchange
    /// and calls `answerForwarded` once it is all in; otherwise the kept body goes at once.
    func forward(_ job: ForwardJob, for decision: Decision, answering request: Request, state: RequestState, on connection: some RequestConnection) -> Bool {
        guard let forwarder, let rawTarget = state.rawTarget else {
            return sendGenerated(Self.upstreamFailure(job, timedOut: false, reason: "forwarding is not set up"), for: decision, answering: request, state: state, on: connection)
        }
        let body: UpstreamRequest.Body
        if state.bodyComplete {
            body = state.hasBody ? .length(state.bodySize) : .none
        } else {
            body = !state.hasBody ? .none : state.announcedBodySize.map { .length($0) } ?? .chunked
        }
        guard let exchange = forwarder.forward(
            request, decision: decision, rawTarget: rawTarget, body: body, on: connection,
            hangUps: hangUps
        ) else {
            return sendGenerated(Self.upstreamFailure(job, timedOut: false, reason: "no HTTP client transfer can be made"), for: decision, answering: request, state: state, on: connection)
        }
        state.forwarded = exchange
        if !state.body.isEmpty { state.body.withUnsafeBytes { exchange.push($0) } }
        guard state.bodyComplete else { return true }
        return answerForwarded(exchange, job: job, state: state, on: connection)
    }

    /// Once the client's body is all in (and again after each resume): queues the target's answer, whose
    /// body streams to the client as it arrives, or the `502`/`504` saying why there is none; or suspends the
    /// connection until the target answers.
    func answerForwarded(_ exchange: ForwardedExchange, job: ForwardJob, state: RequestState, on connection: some RequestConnection) -> Bool {
        exchange.endUpload()
        guard let outcome = exchange.awaitOutcome() else { return true }
        let decision = exchange.decision, request = exchange.request
        switch outcome {
        case .head(let head):
            let globalHeaders = state.tree?.globalHeaders ?? []
            // Without global headers or CORS, the target's headers go from where they were read, as C strings.
            let inPlace = globalHeaders.isEmpty && !cors
            let headers = inPlace ? [] : withCORS(HTTPHeader.merging(own: head.clientHeaders, global: globalHeaders), on: connection)
            let response: HTTPResponse?
            if request.method != "HEAD", let whole = exchange.takeWholeBody(limit: 64 * 1024) {
                // Already all here: sent with its head in one write.
                response = HTTPResponse(takingMalloced: whole, headers: headers)
            } else {
                let size = request.method == "HEAD" ? head.contentLength ?? 0 : head.contentLength
                // libmicrohttpd allocates (and zeroes) a block per response: no larger than the body needs.
                let blockSize = size.map { min(64 * 1024, max(1024, Int(clamping: $0))) } ?? 16 * 1024
                response = HTTPResponse(size: size, blockSize: blockSize, source: exchange, headers: headers)
            }
            guard let response else {
                return finished(decision, status: UInt32(head.statusCode), queued: false, answering: request, state: state)
            }
            if inPlace { head.forEachClientHeader { response.add(name: $0, value: $1) } }
            let queued = connection.queue(response, status: UInt32(head.statusCode))
            return finished(decision, status: UInt32(head.statusCode), queued: queued, answering: request, state: state)
        case .failed(let failure) where failure.serverStopping:
            let made = GeneratedAnswer.error(503, "the server is stopping", globalHeaders: state.tree?.globalHeaders ?? [])
            return sendGenerated(made, for: decision, answering: request, state: state, on: connection)
        case .failed(let failure):
            let made = Self.upstreamFailure(job, timedOut: failure.timedOut, reason: failure.reason, globalHeaders: state.tree?.globalHeaders ?? [])
            return sendGenerated(made, for: decision, answering: request, state: state, on: connection)
        }
    }

    /// `502` `{"error": "upstream_unavailable", "target", "reason"}`, or for a timeout `504` `upstream_timeout`.
    static func upstreamFailure(_ job: ForwardJob, timedOut: Bool, reason: String, globalHeaders: [HTTPHeader] = []) -> GeneratedAnswer {
        .json(timedOut ? 504 : 502, .object([
            JSONMember(key: "error", value: .string(timedOut ? "upstream_timeout" : "upstream_unavailable")),
            JSONMember(key: "target", value: .string(job.target.description)),
            JSONMember(key: "reason", value: .string(reason)),
        ]), globalHeaders: globalHeaders)
    }
}
