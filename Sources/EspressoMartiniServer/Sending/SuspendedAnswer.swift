import EspressoMartini
import Synchronization

/// A request whose connection is suspended (a delay, a script): the decision to carry out when it resumes
/// and the request it answers, and the connection, so that shut-down can resume it early. Made only for such
/// requests, so that every other one carries a single nil reference. `resumed` is raced for by the delay's
/// timer and shut-down; only the winner resumes.
final class SuspendedAnswer: @unchecked Sendable {
    var decision: Decision
    let request: Request
    let connection: any RequestConnection
    let resumed = Atomic<Bool>(false)

    init(_ decision: Decision, answering request: Request, on connection: any RequestConnection) {
        self.decision = decision
        self.request = request
        self.connection = connection
    }
}
