import EspressoMartini
import Synchronization

/// What the server remembers about one request between libmicrohttpd's calls to the handler.
/// libmicrohttpd hands a connection to one thread at a time, so the plain fields need no lock;
/// `resumed` is raced for by the delay timer and shut-down, and only the winner resumes.
final class RequestState: @unchecked Sendable {
    let started = ContinuousClock.now
    var connection: OpaquePointer?
    var bodySize = 0
    /// The answer chosen at arrival, sent once the delay has passed.
    var pending: Answer?
    let resumed = Atomic<Bool>(false)
}
