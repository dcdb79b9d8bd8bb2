@testable import EspressoMartiniServer
import EspressoMartini

/// An upstream client that a test plays the target for: it keeps the transfers a lane starts, with the
/// request each was to send (its head as written for the wire), and the test answers them (`answer`), fails
/// them (`fail`) or takes their body (`takeUpload`) when it chooses. On the test loop's thread, as a real
/// client is on its loop's.
final class FakeUpstreamClient: UpstreamClient, @unchecked Sendable {
    final class Transfer: UpstreamTransfer, @unchecked Sendable {
        var lanePosition = -1
        let text = UpstreamRequestText(style: .http)
        private(set) var receiver: UpstreamTransferReceiver?
        private(set) var request = UpstreamRequest(method: "GET", body: .none)
        /// How often the lane let the transfer move again.
        private(set) var unpauses = 0

        /// The request's head as it would go on the wire.
        var head: String { String(decoding: text.written, as: UTF8.self) }

        func configure(_ request: UpstreamRequest, receiver: UpstreamTransferReceiver) {
            self.request = request
            self.receiver = receiver
        }

        func unpause() { unpauses += 1 }
        func release() { receiver = nil }
    }

    /// Every transfer started, in order, and those the lane stopped.
    private(set) var started: [Transfer] = []
    private(set) var removed: [Transfer] = []
    private var ended: [(transfer: Transfer, failure: TransferFailure?)] = []

    func makeTransfer() -> (any UpstreamTransfer)? { Transfer() }
    func add(_ transfer: any UpstreamTransfer) { started.append(transfer as! Transfer) }

    func remove(_ transfer: any UpstreamTransfer) {
        removed.append(transfer as! Transfer)
        ended.removeAll { $0.transfer === transfer }
    }

    func runTimers() {}

    func takeEnded(_ body: (any UpstreamTransfer, TransferFailure?) -> Void) {
        let taken = ended
        ended.removeAll()
        for (transfer, failure) in taken { body(transfer, failure) }
    }

    func prepareWait(milliseconds: Int) -> Int { milliseconds }
    func ready(token: UInt64, events: UInt32) {}

    /// The target answers `transfer` with `bytes` (a head and a body, framed as on the wire), read as the
    /// plain client reads them, 64 KiB at a time; what the exchange refuses for want of room is returned, to
    /// be answered with once the transfer is unpaused. The transfer ends once the answer is complete.
    @discardableResult
    func answer(_ transfer: Transfer, with bytes: [UInt8]) -> [UInt8] {
        guard let receiver = transfer.receiver else { return bytes }
        var offset = 0
        while offset < bytes.count {
            let piece = bytes[offset..<min(bytes.count, offset + 64 << 10)]
            let progress = piece.withUnsafeBytes {
                readers[
                    ObjectIdentifier(transfer),
                    default: UpstreamResponseReader(answersHead: transfer.request.method == "HEAD")
                ]
                .read($0, head: { receiver.transferHead($0) }, body: { receiver.transferBody($0) })
            }
            switch progress {
            case .complete:
                ended.append((transfer, nil))
                return []
            case .paused:
                return Array(bytes[(offset + readers[ObjectIdentifier(transfer)]!.consumed)...])
            default:
                offset += piece.count
            }
        }
        return []
    }

    /// Each transfer's answer as read so far.
    private var readers: [ObjectIdentifier: UpstreamResponseReader] = [:]

    /// The transfer fails with `reason`.
    func fail(_ transfer: Transfer, _ reason: String, timedOut: Bool = false) {
        ended.append((transfer, TransferFailure(timedOut: timedOut, reason: reason)))
    }

    /// Takes what the exchange has of the request's body, piece by piece, until it has none ready: the bytes,
    /// and whether the body ended.
    func takeUpload(_ transfer: Transfer) -> (bytes: [UInt8], ended: Bool) {
        guard let receiver = transfer.receiver else { return ([], false) }
        var taken: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            switch receiver.transferUpload(into: buffer) {
            case .bytes(let count): taken += buffer[..<count]
            case .end: return (taken, true)
            case .wait, .abort: return (taken, false)
            }
        }
    }
}
