import Foundation

/// One client asking for the same target again and again on a thread of its own, one request after
/// the other, until stopped (bounded); keeps every answer in order.
final class RepeatedRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [HTTPResponse] = []
    private var errors: [String] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    init(client: HTTPClient, target: String) {
        Thread { [self] in
            defer { finished.signal() }
            while !lock.withLock({ stopping }) {
                do {
                    let answer = try client.sendBlocking("GET", target)
                    lock.withLock { answers.append(answer) }
                } catch {
                    lock.withLock { errors.append("\(error)") }
                }
            }
        }.start()
    }

    /// Stops asking and returns the answers in order, and the failed requests' errors.
    func stop() throws -> (answers: [HTTPResponse], errors: [String]) {
        lock.withLock { stopping = true }
        guard finished.wait(timeout: .now() + 15) == .success else {
            throw ServerProcessError(description: "the repeated requests did not stop within 15 s")
        }
        return lock.withLock { (answers, errors) }
    }
}
