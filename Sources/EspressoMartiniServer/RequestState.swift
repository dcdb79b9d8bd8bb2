import EspressoMartini
import Synchronization

/// What the server remembers about one request between libmicrohttpd's calls to the access handler.
/// libmicrohttpd hands a connection to one thread at a time, so the plain fields need no lock;
/// `resumed` is raced for by the delay timer and shut-down, and only the winner resumes.
final class RequestState: @unchecked Sendable {
    /// When the request line arrived, for the access log; nil when the access log is off, as reading
    /// the clock for every request would then be wasted.
    let started: ContinuousClock.Instant?
    /// The raw query string without `?`, `""` when there is none.
    let query: String
    /// False until the handler has seen the request's headers once.
    var headersSeen = false
    var bodySize = 0
    /// The start of the body, up to `JournalEntry.bodyLimit`, for the journal (kept only when it is on).
    var bodyPrefix: [UInt8] = []
    /// The decision waiting out its delay, the request it answers and the suspended connection.
    var pending: (decision: Decision, request: Request)?
    var connection: OpaquePointer?
    let resumed = Atomic<Bool>(false)

    init(query: String, timed: Bool) {
        self.query = query
        started = timed ? .now : nil
    }
}
