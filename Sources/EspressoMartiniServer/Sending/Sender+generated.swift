import EspressoMartini

extension Sender {
    /// Bytes made for this request (an error, an admin answer, a template rendered, a script's answer),
    /// copied into a response of its own.
    func sendGenerated(
        _ made: GeneratedAnswer, pacedAt pace: Double?, for decision: Decision, answering request: Request,
        state: RequestState,
        on connection: some RequestConnection
    ) -> Bool {
        deliver(
            .copied(made.body), status: made.statusCode, headers: made.headers, pacedAt: pace, for: decision,
            answering: request, state: state, on: connection)
    }
}
