import EspressoMartini
import Synchronization

/// A callback body whose bytes arrive over time, from its loop's timers (a stream's chunks, a body no
/// faster than its bandwidth), with no thread waiting for them. When libmicrohttpd asks for bytes and none are ready, the body suspends its connection and
/// reads `.suspended`; a producer calls `wake()` (any thread) once bytes may be ready, which resumes the
/// connection, and libmicrohttpd asks again.
///
/// Race-free: a wake that comes while a read is finding nothing makes that read look again instead of
/// suspending, so no wake is ever lost; and the connection is resumed only by the wake that finds it
/// suspended, exactly once, while libmicrohttpd keeps a suspended connection alive.
///
/// A subclass writes `produce(at:into:)`. `end(_:)` stops the body from any thread (the server stops);
/// watched for hang-ups (`watchesHangUps`), a client that closes its connection while the body waits ends
/// it at once, so its connection and descriptor are given back without waiting for the next bytes.
/// `closed()` runs once when libmicrohttpd is done with the body.
class ArrivingBody: BodySource, HangUpListener, @unchecked Sendable {
    private struct State {
        /// Counts wakes, so that a read sees whether one came while it was looking.
        var wakes: UInt64 = 0
        /// The connection is suspended by a read, and the next wake resumes it.
        var parked = false
        /// What every read gives from now on (`end(_:)`).
        var ending: BodyRead?
    }

    let connection: any RequestConnection
    private let state = Locked(State())
    /// A timed wake is scheduled (`wake(after:on:)`).
    private let timedWake = Atomic<Bool>(false)
    /// A client that leaves while the body waits ends it.
    private let watchesHangUps: Bool
    /// Set once the connection's socket is watched (on the connection's thread only).
    private var watched = false
    /// Runs once in `closed()`: the owner forgets the body.
    private let onClose: (@Sendable (ArrivingBody) -> Void)?

    /// With `watchesHangUps`, the connection's loop watches its socket while the body waits; `onClose` runs
    /// when libmicrohttpd is done with the body.
    init(
        connection: any RequestConnection, watchesHangUps: Bool = true,
        onClose: (@Sendable (ArrivingBody) -> Void)? = nil
    ) {
        self.connection = connection
        self.watchesHangUps = watchesHangUps
        self.onClose = onClose
    }

    /// What is ready from `position` on: `.bytes` written into `buffer` (at most its count, at least
    /// one), `.endOfBody` or `.broken`; nil when nothing is ready yet, and then some producer will call
    /// `wake()` once there may be; `.suspended` only when a body this one reads from suspended the
    /// connection itself (and will resume it). On the connection's thread, one call at a time.
    func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        .broken
    }

    /// Whether the body never ends by itself (a stream that repeats until the client goes): shut-down
    /// ends such bodies at once instead of waiting for them.
    var isEndless: Bool { false }

    final override func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        while true {
            let (seen, ending) = state.withLock { ($0.wakes, $0.ending) }
            if let ending { return ending }
            if let produced = produce(at: position, into: buffer) {
                if produced == .suspended { watchHangUps() }
                return produced
            }
            watchHangUps()
            let parked = state.withLock { state in
                guard state.wakes == seen, state.ending == nil else { return false }  // a wake came: look again
                state.parked = true
                connection.suspend()
                return true
            }
            if parked { return .suspended }
        }
    }

    /// Bytes may be ready, or the body's end: resumes the connection if a read suspended it. Any thread,
    /// any number of times.
    final func wake() {
        state.withLock { state in
            state.wakes &+= 1
            if state.parked {
                state.parked = false
                connection.resume()
            }
        }
    }

    /// Calls `wake()` once `seconds` have passed, on the connection's loop, unless a timed wake is already
    /// scheduled (it stands, so a body asks for its earliest wake first). On the connection's loop.
    final func wake(after seconds: Double) {
        guard !timedWake.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Weak: a body its client has left need not stay until its next bytes would have been due.
        connection.loop.schedule(after: seconds) { [weak self] in
            self?.timedWake.store(false, ordering: .releasing)
            self?.wake()
        }
    }

    /// Every read gives `how` from now on (`.endOfBody` or `.broken`), and the body is woken to give it.
    /// Any thread; the first end stands.
    final func end(_ how: BodyRead) {
        state.withLock { state in
            if state.ending == nil { state.ending = how }
        }
        wake()
        ended(how)
    }

    /// The body was ended: a subclass ends what it reads from too. Any thread.
    func ended(_ how: BodyRead) {}

    /// While the body waits, its client is watched for leaving (once).
    private func watchHangUps() {
        guard !watched, watchesHangUps else { return }
        watched = true
        connection.loop.watchHangUp(of: connection.socket, for: self)
    }

    /// The client closed its connection: the body is cut short.
    final func clientLeft() {
        end(.broken)
    }

    override func closed() {
        if watched { connection.loop.forgetHangUp(of: self) }
        onClose?(self)
    }
}
