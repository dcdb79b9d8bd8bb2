/// What drives requests to the proxy's target, on a serving loop's thread, its connections in the loop's
/// epoll set: libcurl (`HTTPClientMulti`, for `https://` targets and targets named by a host name) or
/// `PlainHTTPClient` (plain HTTP to an address, the common local case, at a fraction of libcurl's cost per
/// request). Every method but `makeTransfer` is called on the loop's thread only.
protocol UpstreamClient: AnyObject, Sendable {
    /// A new transfer; nil when none can be made.
    func makeTransfer() -> (any UpstreamTransfer)?
    /// Starts the transfer, configured beforehand.
    func add(_ transfer: any UpstreamTransfer)
    /// Stops `transfer` where it is (its connection is closed unless its answer was complete), and forgets
    /// that it ended if `ended` has not said so yet.
    func remove(_ transfer: any UpstreamTransfer)
    /// Moves on the transfers whose time has come.
    func runTimers()
    /// Calls `body` with each transfer that has ended since the last call, and its failure (nil: the answer
    /// is complete); `body` gives each to `remove`.
    func takeEnded(_ body: (any UpstreamTransfer, TransferFailure?) -> Void)
    /// Before the loop waits: brings its epoll set in line with what the client watches, and returns how
    /// long the loop may wait, `milliseconds` or less when a timer of the client runs out sooner.
    func prepareWait(milliseconds: Int) -> Int
    /// One of the client's descriptors is ready (`token` as it was watched with): moves on the transfers on it
    /// (their receivers' callbacks run meanwhile).
    func ready(token: UInt64, events: UInt32)
}

/// One request to the target, reused for request after request. Configured on any thread while it is in
/// no client; driven only by its client's loop.
protocol UpstreamTransfer: AnyObject, Sendable {
    /// Where the lane running the transfer keeps it (`ForwardingLane`); -1 while it runs in none.
    var lanePosition: Int { get set }
    /// What the next request says to the target (`Forwarder.writeRequest`), written before `configure`.
    var text: UpstreamRequestText { get }
    /// Sets the transfer up for `request`, written in `text`, reporting to `receiver`.
    func configure(_ request: UpstreamRequest, receiver: HTTPClientTransferReceiver)
    /// Receiving and sending go on after a pause; the receiver's callbacks may run at once.
    func unpause()
    /// Lets go of the receiver once the transfer has ended.
    func release()
}
