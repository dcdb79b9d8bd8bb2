/// What to answer one request, as `Decider.decide` chose it; the sender puts it on the wire. A new kind of
/// answer (a script's result, a fault) is one more case here and its sending, with no change to routing.
public enum Decision: Sendable {
    /// An exchange's response as the tree configures it, sent from the tree's slot for it (built once
    /// per tree, shared by every request) or from disk; for a template, the bytes rendered for this
    /// request (`ExchangeAnswer.rendered`).
    case exchange(ExchangeAnswer)
    /// Bytes made for this request: the `400`/`404`/`405` errors.
    case generated(GeneratedAnswer)
    /// The admin API's answer; admin requests are never journaled or delayed.
    case admin(GeneratedAnswer)
    /// Wait `seconds`, then carry out the decision, without holding a thread while waiting.
    indirect case delayed(seconds: Double, Decision)

    /// The status the request is answered with; 0 for a fault.
    public var statusCode: UInt32 {
        switch self {
        case .exchange(let answer): answer.reportedStatus
        case .generated(let answer), .admin(let answer): answer.statusCode
        case .delayed(_, let decision): decision.statusCode
        }
    }

    /// The exchange's answer, when an exchange answers.
    public var exchangeAnswer: ExchangeAnswer? {
        switch self {
        case .exchange(let answer): answer
        case .generated, .admin: nil
        case .delayed(_, let decision): decision.exchangeAnswer
        }
    }

    public var isAdmin: Bool {
        if case .admin = self { return true }
        return false
    }
}
