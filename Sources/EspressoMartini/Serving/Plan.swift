/// What `Decider.plan` finds for a request without moving anything: the answer it would get now. The
/// server commits it (`Decider.commit`: the counter steps, a template renders); `explain` and the admin
/// API's explanation report it as it is. A new kind of answer gets its case here and its line in
/// `Explanation`.
public enum Plan: Sendable {
    /// An exchange's route matches and (with variants) one of its variants holds.
    case exchange(ExchangeChoice)
    /// `404`: the exchange at this index (of `overlay`, a runtime exchanges' tree, or of the tree in
    /// service) has variants and none holds.
    case noVariant(exchange: Int, model: RequestModel, overlay: ServingTree?)
    /// `405`: routes match the path, none has the method; these are allowed.
    case methodNotAllowed([HTTPMethod])
    /// `204`: a CORS preflight (`"cors": true`) to a route without an `OPTIONS` exchange, which answers
    /// these methods; counted as no exchange's call.
    case preflight([HTTPMethod])
    /// `404`: no route matches the path.
    case notFound
    /// `400`: the path has a `.` or `..` segment.
    case dotSegment
    /// Refused before any exchange is looked at: a session header naming no session (`400`), a client the
    /// admin API does not let in (`401`, `403`).
    case refused(Refusal)
    /// The admin API answers (its prefix, while it is on).
    case admin
    /// The proxy's target answers (`"proxy"`): the tree has no answer, and `miss` says what it would have
    /// been (`notFound`, `methodNotAllowed` or `noVariant`); nil when every request is forwarded (`record`).
    indirect case forward(miss: Plan?)

    /// A word for JSON: `exchange`, `sequence_over`, `no_variant`, `method_not_allowed`, `cors_preflight`,
    /// `not_found`, `dot_segment`, `refused`, `admin_api`, `forwarded`.
    public var name: String {
        switch self {
        case .exchange(let choice): choice.position == nil ? "sequence_over" : "exchange"
        case .noVariant: "no_variant"
        case .methodNotAllowed: "method_not_allowed"
        case .preflight: "cors_preflight"
        case .notFound: "not_found"
        case .dotSegment: "dot_segment"
        case .refused: "refused"
        case .admin: "admin_api"
        case .forward: "forwarded"
        }
    }

    /// The exchange the route chose, answering or not.
    public var exchangeIndex: Int? {
        switch self {
        case .exchange(let choice): choice.exchange
        case .noVariant(let index, _, _): index
        case .forward(let miss): miss?.exchangeIndex
        default: nil
        }
    }

    /// The runtime exchanges' tree `exchangeIndex` is in; nil for the tree in service.
    public var overlay: ServingTree? {
        switch self {
        case .exchange(let choice): choice.overlay
        case .noVariant(_, _, let overlay): overlay
        case .forward(let miss): miss?.overlay
        default: nil
        }
    }
}

/// The exchange (and variant) a request's route and conditions choose, and where its sequence stands now.
public struct ExchangeChoice: Sendable {
    /// The exchange's index in its tree: `overlay`, or the tree in service.
    public let exchange: Int
    /// The runtime exchanges' tree the exchange is in (doc/admin-api.md); nil for the tree in service.
    public let overlay: ServingTree?
    /// The variant that holds (0-based); nil for an exchange without variants.
    public let variant: Int?
    /// The counter `commit` steps; nil for a session that has not called this exchange yet (its counter is
    /// made on the first commit).
    public let counter: CallCounter?
    /// Calls counted so far by that counter.
    public let calls: Int
    /// The response the next call gets, as a 0-based position in the exchange's `responses`; nil when its
    /// `once` sequence is over (`410`).
    public let position: Int?
    /// The request as the variants' conditions read it, kept for a template or a script; nil when no
    /// condition was read.
    public let model: RequestModel?
}
