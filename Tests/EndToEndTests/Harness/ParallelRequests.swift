import Dispatch
import Foundation

/// A batch of identical requests, each on its own connection and its own thread, sent at the same moment:
/// all connections are opened first, then a gate lets every thread write its request at once.
/// Every wait is bounded (connect, send and receive by the client's timeouts, the gate, the collection).
/// Times are taken on the request threads, counted from the release of the gate.
/// (State is guarded by an `NSLock`, a pthread mutex that ThreadSanitizer understands; on Linux it
/// reports false races inside `Synchronization.Mutex`.)
final class ParallelRequests: @unchecked Sendable {
    let count: Int
    private let lock = NSLock()
    private var slots: [TimedResponse?]
    private var finished = 0
    private var releasedAt: ContinuousClock.Instant?
    private let connected = DispatchSemaphore(value: 0)
    private let sent = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    private init(count: Int) {
        self.count = count
        slots = Array(repeating: nil, count: count)
    }

    /// Opens `count` connections, waits until all are open, releases them together and waits until
    /// every request has been written. Blocks the calling thread (bounded): call it from a thread of
    /// its own (`BlockingCall`) or use the async `start`.
    static func startBlocking(
        _ count: Int, client: HTTPClient, method: String = "GET", target: String, headers: [(String, String)] = [],
        body: [UInt8]? = nil
    ) throws -> ParallelRequests {
        let batch = ParallelRequests(count: count)
        let request = client.requestBytes(method, target, headers: headers, body: body)
        for index in 0..<count {
            let thread = Thread { batch.perform(index, client: client, request: request) }
            thread.start()
        }
        try batch.wait(batch.connected, times: count, what: "connections open")
        batch.lock.withLock { batch.releasedAt = .now }
        for _ in 0..<count { batch.gate.signal() }
        try batch.wait(batch.sent, times: count, what: "requests sent")
        return batch
    }

    static func start(
        _ count: Int, client: HTTPClient, method: String = "GET", target: String, headers: [(String, String)] = [],
        body: [UInt8]? = nil
    ) async throws -> ParallelRequests {
        try await BlockingCall.run {
            try startBlocking(count, client: client, method: method, target: target, headers: headers, body: body)
        }
    }

    private func perform(_ index: Int, client: HTTPClient, request: [UInt8]) {
        let connection: HTTPConnection
        do {
            connection = try HTTPConnection(host: client.host, port: client.port, timeout: client.timeout)
        } catch {
            connected.signal()
            sent.signal()
            record(index, nil, "connect: \(error)")
            return
        }
        defer { connection.close() }
        connected.signal()
        guard gate.wait(timeout: .now() + 15) == .success else {
            sent.signal()
            record(index, nil, "never released")
            return
        }
        do {
            try connection.write(request)
        } catch {
            sent.signal()
            record(index, nil, "send: \(error)")
            return
        }
        sent.signal()
        do {
            record(index, try HTTPResponse(raw: connection.readToEnd()), nil)
        } catch {
            record(index, nil, "\(error)")
        }
    }

    private func record(_ index: Int, _ response: HTTPResponse?, _ error: String?) {
        lock.withLock {
            let start = releasedAt ?? .now
            slots[index] = TimedResponse(response: response, error: error, elapsed: .now - start)
            finished += 1
        }
        done.signal()
    }

    private func wait(_ semaphore: DispatchSemaphore, times: Int, what: String, timeout: Double = 15) throws {
        let deadline = DispatchTime.now() + timeout
        for reached in 0..<times where semaphore.wait(timeout: deadline) != .success {
            throw ServerProcessError(description: "only \(reached) of \(times) \(what) within \(timeout) s")
        }
    }

    /// How many requests have their answer (or failed) so far.
    var finishedCount: Int { lock.withLock { finished } }

    /// Blocks (bounded) until every request has ended; the results are in index order.
    func resultsBlocking() throws -> [TimedResponse] {
        try wait(done, times: count, what: "requests finished", timeout: 20)
        for _ in 0..<count { done.signal() }  // so that a second call returns at once
        return lock.withLock { slots.map { $0! } }
    }

    /// Waits (bounded) for every request to end; the results are in index order.
    func results() async throws -> [TimedResponse] {
        try await BlockingCall.run { try self.resultsBlocking() }
    }
}
