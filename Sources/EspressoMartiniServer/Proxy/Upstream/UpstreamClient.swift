/// What drives requests to the proxy's target, on a serving loop's thread, its connections in the loop's
/// epoll set: libcurl (`CurlUpstreamClient`, for `https://` targets and targets named by a host name) or
/// `PlainUpstreamClient` (plain HTTP to an address, the common local case, at a fraction of libcurl's cost per
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
