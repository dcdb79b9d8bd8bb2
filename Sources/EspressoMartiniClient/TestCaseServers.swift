import Foundation

/// The servers of the `MockServerTestCase` classes (or why one did not start), by class, behind a lock.
final class TestCaseServers: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [ObjectIdentifier: Result<MockServer, any Error>] = [:]

    func set(_ result: Result<MockServer, any Error>, for type: AnyClass) {
        lock.withLock { results[ObjectIdentifier(type)] = result }
    }

    func server(for type: AnyClass) throws -> MockServer {
        guard let result = lock.withLock({ results[ObjectIdentifier(type)] }) else {
            throw MockServerError.didNotStart("\(type).setUp() did not run; call super.setUp() from class setUp")
        }
        return try result.get()
    }

    func remove(for type: AnyClass) -> MockServer? {
        try? lock.withLock { results.removeValue(forKey: ObjectIdentifier(type)) }?.get()
    }
}
