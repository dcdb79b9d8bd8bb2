import EspressoMartini

/// What the server remembers about one request between libmicrohttpd's calls to the access handler.
/// libmicrohttpd hands a connection to one thread at a time, and a suspended one to none, so the fields
/// need no lock.
final class RequestState: @unchecked Sendable {
    /// When the request line arrived, for the access log; nil when the access log is off, as reading
    /// the clock for every request would then be wasted.
    let started: ContinuousClock.Instant?
    /// The raw query string without `?`, `""` when there is none.
    let query: String
    /// False until the handler has seen the request's headers once.
    var headersSeen = false
    /// The tree in service when the headers arrived, which decides the request.
    var tree: ServingTree?
    var bodySize = 0
    /// The start of the body, up to `bodyLimit` bytes: for the journal, and whole up to
    /// `VariantConditions.bodyLimit` for an exchange that reads it.
    var body: [UInt8] = []
    var bodyLimit = 0
    /// The session its session header names; nil for the default session.
    var session: Session?
    /// Why its session header names no session (`400`); nil when it is fine or absent.
    var sessionRefusal: String?
    /// The exchange reads the body: the request carries it.
    var exchangeReadsBody = false
    /// The request's journal entry and the status it was recorded with, to complete it with the status sent.
    var journalEntry: (ticket: RequestJournal.Ticket, status: Int?)?
    /// While the connection is suspended (a delay, a script): what to send when it resumes.
    var suspended: SuspendedAnswer?

    // With a proxy.
    /// The request line's target as sent (path and query, not decoded), for the target; nil without a proxy.
    let rawTarget: String?
    /// Whether the request has a body (`Content-Length` or `Transfer-Encoding`), and the length it announced.
    var hasBody = false
    var announcedBodySize: Int?
    /// The whole body has arrived (the access handler's last call).
    var bodyComplete = false
    /// The decision has been looked at once the body outgrew what conditions read.
    var checkedPastBodyLimit = false
    /// The request being forwarded to the proxy's target.
    var forwarded: ForwardedExchange?

    init(query: String, timed: Bool, rawTarget: String? = nil) {
        self.query = query
        started = timed ? .now : nil
        self.rawTarget = rawTarget
    }
}
