/// One request to the target, reused for request after request. Configured on any thread while it is in
/// no client; driven only by its client's loop.
protocol UpstreamTransfer: AnyObject, Sendable {
    /// Where the lane running the transfer keeps it (`ForwardingLane`); -1 while it runs in none.
    var lanePosition: Int { get set }
    /// What the next request says to the target (`Forwarder.writeRequest`), written before `configure`.
    var text: UpstreamRequestText { get }
    /// Sets the transfer up for `request`, written in `text`, reporting to `receiver`.
    func configure(_ request: UpstreamRequest, receiver: UpstreamTransferReceiver)
    /// Receiving and sending go on after a pause; the receiver's callbacks may run at once.
    func unpause()
    /// Lets go of the receiver once the transfer has ended.
    func release()
}
