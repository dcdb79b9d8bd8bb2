import EspressoMartini

/// What the server remembers about one request between libmicrohttpd's calls to the access handler.
/// libmicrohttpd hands a connection to its loop's thread only, and a suspended one to none, so the fields
/// need no lock.
final class RequestState: @unchecked Sendable {
    /// Where the request stands.
    enum Phase {
        /// Its headers are not in yet.
        case started
        /// Planned once its body is in (its exchange reads it, or the admin API does), on `awaitedRoute`.
        case awaitingBody
        /// `decision` answers it.
        case decided
    }

    /// When the request line arrived (`MonotonicClock`), for the access log; nil when the access log is
    /// off, as reading the clock for every request would then be wasted.
    let started: UInt64?
    /// The request line's target as sent (the path and query, not decoded), kept when the server may forward
    /// the request; `""` otherwise.
    let target: String
    /// The query string without `?`, `""` when there is none.
    let query: String
    /// The path's segments split before decoding, for a target holding `%2F`; nil for every other.
    var sentPath: RequestPath?
    var phase = Phase.started
    /// The request as its headers made it (with its body once it is in, when something reads it).
    var request: Request?
    /// What answers it, once decided.
    var decision: Decision?
    /// While the plan awaits the body: the route the request's exchange was found by (nil for the admin API).
    var awaitedRoute: ResolvedRoute?
    /// The whole body has arrived (the access handler's last call).
    var bodyComplete = false
    /// The tree in service when the headers arrived, which decides the request.
    var tree: ServingTree?
    var bodySize = 0
    /// The start of the body, up to `bodyLimit` bytes: for the journal, and whole up to
    /// `VariantConditions.bodyLimit` for an exchange that reads it.
    var body: [UInt8] = []
    var bodyLimit = 0
    /// Where the body goes besides, as it arrives, when the decision sends it on (a forward: to the target).
    var bodySink: (any RequestBodySink)?
    /// The request's journal entry and the status it was recorded with, to complete it with the status sent.
    var journalEntry: (ticket: RequestJournal.Ticket, status: Int?)?
    /// While the connection is suspended (a delay, a script): what to send when it resumes.
    var suspended: SuspendedAnswer?

    init(target: String, query: String, timed: Bool) {
        self.target = target
        self.query = query
        started = timed ? MonotonicClock.now() : nil
    }
}
