import EspressoMartini

/// A body no faster than a bandwidth (doc/streams-and-networks.md): the one decorator a slow network puts
/// on any body (a configured one, one made for the request, a stream). It lets its inner body write only
/// what the throttle allows, and waits on the loop's timers for more, the connection suspended meanwhile;
/// an inner body that waits for its own bytes (a stream between chunks) suspends the connection itself.
final class PacedBody: ArrivingBody, @unchecked Sendable {
    private let inner: BodySource
    private var throttle: Throttle
    /// What is left of a body of known size, to wait for no more than that.
    private let size: UInt64?

    init(
        _ inner: BodySource, size: UInt64?, bytesPerSecond: Double, connection: any RequestConnection,
        onClose: (@Sendable (ArrivingBody) -> Void)?
    ) {
        self.inner = inner
        self.size = size
        throttle = Throttle(bytesPerSecond: bytesPerSecond)
        super.init(connection: connection, onClose: onClose)
    }

    /// The most bytes libmicrohttpd should ask for at once.
    var blockSize: Int { throttle.burst }

    override var isEndless: Bool { (inner as? ArrivingBody)?.isEndless ?? false }

    override func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead? {
        let allowed = throttle.allowance(at: MonotonicClock.now())
        guard allowed > 0 else {
            let left = size.map { Int(clamping: $0 &- position) } ?? throttle.burst
            wake(after: throttle.wait(for: left))
            return nil
        }
        let read = inner.read(
            at: position, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, allowed)]))
        if case .bytes(let count) = read { throttle.spend(count) }
        return read
    }

    /// The inner body ends as this one does (a stream waiting for its next chunk resumes to end).
    override func ended(_ how: BodyRead) {
        (inner as? ArrivingBody)?.end(how)
    }

    override func closed() {
        inner.closed()
        super.closed()
    }
}
