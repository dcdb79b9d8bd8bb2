import Foundation

/// Response statuses counted by several client threads, and the first error one of them hit.
/// (An `NSLock`, which the thread sanitizer understands.)
final class StatusTally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int: Int] = [:]
    private var error: (any Error)?

    func add(_ seen: [Int: Int]) {
        lock.withLock { counts.merge(seen, uniquingKeysWith: +) }
    }

    func fail(_ error: any Error) {
        lock.withLock { if self.error == nil { self.error = error } }
    }

    /// The counts by status; throws the first error recorded.
    func result() throws -> [Int: Int] {
        try lock.withLock {
            if let error { throw error }
            return counts
        }
    }
}
