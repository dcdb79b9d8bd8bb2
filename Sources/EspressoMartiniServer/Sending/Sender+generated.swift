import EspressoMartini

extension Sender {
    /// Bytes made for this request (an error, an admin answer, a template rendered, a script's answer),
    /// copied into a response of its own.
    func sendGenerated(
        _ made: GeneratedAnswer, for decision: Decision, answering request: Request, state: RequestState, on connection: some RequestConnection
    ) -> Bool {
        guard let response = HTTPResponse(copying: made.body, headers: withCORS(made.headers, on: connection)) else {
            return finished(decision, status: made.statusCode, queued: false, answering: request, state: state)
        }
        let queued = connection.queue(response, status: made.statusCode)
        return finished(decision, status: made.statusCode, queued: queued, answering: request, state: state)
    }
}
