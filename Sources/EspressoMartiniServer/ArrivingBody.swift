import EspressoMartini

/// A callback response's body whose bytes arrive over time from another thread (a target's answer being
/// forwarded, the chunks of a stream). libmicrohttpd asks for bytes on the connection's thread; when none
/// are ready, `read` suspends the connection and answers `BodyRead.suspended`, so no thread waits and the
/// connection costs nothing meanwhile. The producer changes what is ready inside `produce`, which resumes
/// the connection if `read` suspended it.
///
/// One lock orders the two sides: `read` looks for bytes and suspends inside it, `produce` makes bytes ready
/// and takes note of a suspension inside it, and resumes only after the suspension is done. So a wake-up is
/// never lost (libmicrohttpd forgets a resume that comes before its suspend) and never given to a connection
/// that was not suspended. A connection libmicrohttpd has finished with is never suspended here, so
/// `produce` after the client has gone touches nothing. Subclasses keep their state behind the same lock:
/// they read it only in `readReady` and change it only in `produce`.
class ArrivingBody: BodySource, @unchecked Sendable {
    private let connection: any RequestConnection
    /// Whether `read` has suspended the connection and nothing has resumed it yet; its lock guards the
    /// subclass's state too.
    private let waiting = Locked(false)

    init(connection: any RequestConnection) {
        self.connection = connection
    }

    /// What is ready from `position` on: bytes copied into `buffer`, the end, or a break; nil when nothing is
    /// ready yet. Called under the lock, on the connection's thread.
    func readReady(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        .broken
    }

    final override func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        waiting.withLock { waiting in
            if let ready = readReady(at: position, into: buffer) { return ready }
            waiting = true
            connection.suspend()
            return .suspended
        }
    }

    /// Runs `body`, which only reads the subclass's state, under the lock. Any thread.
    final func inspect<Result>(_ body: () -> Result) -> Result {
        waiting.withLock { _ in body() }
    }

    /// Runs `change` (which makes bytes, the end or a break ready) under the lock, then resumes the
    /// connection if it waits for them. Any thread.
    @discardableResult
    final func produce<Result>(_ change: () -> Result) -> Result {
        var wake = false
        let result = waiting.withLock { waiting in
            wake = waiting
            waiting = false
            return change()
        }
        if wake { connection.resume() }
        return result
    }
}
