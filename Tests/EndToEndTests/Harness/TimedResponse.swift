/// One of a batch of parallel requests: the response (or why there is none) and when it finished,
/// counted from the moment the batch was released.
struct TimedResponse: Sendable {
    let response: HTTPResponse?
    let error: String?
    let elapsed: Duration

    /// The response, or a failure naming the error.
    func get() throws -> HTTPResponse {
        guard let response else { throw ServerProcessError(description: error ?? "no response") }
        return response
    }
}
