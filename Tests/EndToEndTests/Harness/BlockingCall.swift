import Foundation

/// Runs blocking work (socket I/O, waits) on a thread of its own, so that tests running in parallel
/// never starve Swift's cooperative thread pool.
enum BlockingCall {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try body() })
            }
            thread.start()
        }
    }
}
