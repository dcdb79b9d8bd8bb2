import Foundation

/// The fake connections a `ServerFixture` made, closed when the fixture goes: a queued response that reads
/// a body holds its connection through that body, as with libmicrohttpd, which lets go of it when the
/// connection closes; without the close the two would keep each other (and the tree) alive.
final class ConnectionsMade: @unchecked Sendable {
    private let lock = NSLock()
    private var connections: [FakeConnection] = []

    func append(_ connection: FakeConnection) { lock.withLock { connections.append(connection) } }

    deinit { connections.forEach { $0.close() } }
}
