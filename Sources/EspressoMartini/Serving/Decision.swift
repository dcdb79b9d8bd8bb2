/// What to answer one request, as `Decider.commit` makes it: the sender switches on it and nothing else,
/// one file of its own per kind of sending. A new kind of answer is one more case here, its sending, its
/// `Plan` rule and its line in `Explanation`; routing does not change.
public enum Decision: Sendable {
    /// A response the same for every request: sent from the tree's slot for it (built by its first request
    /// and shared), or from disk for a large file.
    case prebuilt(ExchangeAnswer)
    /// An exchange's answer made for this request: a template rendered, or a script's result.
    case rendered(ExchangeAnswer, GeneratedAnswer)
    /// A script computes the answer, off the serving loops when it is not quick.
    case script(ScriptJob)
    /// The connection breaks on purpose instead of (or while) answering.
    case fault(ResponseFault, ExchangeAnswer)
    /// Bytes made for this request: the `400`/`404`/`405`/`410` errors and CORS preflights.
    case generated(GeneratedAnswer)
    /// The admin API's answer; admin requests are never journaled or delayed.
    case admin(GeneratedAnswer)
    /// `503`: the server is stopping and starts no more scripts.
    case unavailable(ExchangeAnswer)
    /// `500`: the response file at this path cannot be read now (a later request tries again).
    case unreadable(path: String, ExchangeAnswer)
    /// Chunks over time: a `"stream"` response.
    case stream(StreamAnswer)
    /// The decision's body no faster than `bytesPerSecond` (a slow network), without holding a thread.
    indirect case throttled(bytesPerSecond: Double, Decision)
    /// The proxy's target answers; the request's body streams to it as it comes, on the connection's loop.
    case forward(ForwardJob)
    /// Wait `seconds`, then carry out the decision, without holding a thread while waiting.
    indirect case delayed(seconds: Double, Decision)

    /// The status the request is answered with as far as the decision knows it: 0 for a fault, nil for a
    /// script not yet run and a target not yet heard from.
    public var statusCode: UInt32? {
        switch self {
        case .prebuilt(let answer): answer.statusCode
        case .rendered(_, let made), .generated(let made), .admin(let made): made.statusCode
        case .script, .forward: nil
        case .fault: 0
        case .unavailable: 503
        case .unreadable: 500
        case .stream(let stream): stream.answer.statusCode
        case .throttled(_, let decision), .delayed(_, let decision): decision.statusCode
        }
    }

    /// The exchange's answer, when an exchange answers.
    public var exchangeAnswer: ExchangeAnswer? {
        switch self {
        case .prebuilt(let answer), .rendered(let answer, _), .fault(_, let answer), .unavailable(let answer),
            .unreadable(_, let answer):
            answer
        case .script(let job): job.answer
        case .stream(let stream): stream.answer
        case .generated, .admin, .forward: nil
        case .throttled(_, let decision), .delayed(_, let decision): decision.exchangeAnswer
        }
    }

    public var isAdmin: Bool {
        if case .admin = self { return true }
        return false
    }

    public var isForward: Bool {
        if case .forward = self { return true }
        return false
    }
}
