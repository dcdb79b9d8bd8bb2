/// One request to a plain-HTTP target through `PlainUpstreamClient`, reused for request after request: the
/// request's head is written into `text` as it goes on the wire (`Forwarder.writeRequest`, any thread), then
/// the client sends it and the body on a connection to the target and reads the answer back (on its loop).
final class PlainUpstreamTransfer: UpstreamTransfer, @unchecked Sendable {
    let text = UpstreamRequestText(style: .http)
    var lanePosition = -1
    private unowned let client: PlainUpstreamClient
    /// Retained while the transfer runs: the forwarded exchange.
    private(set) var receiver: UpstreamTransferReceiver?
    private(set) var request = UpstreamRequest(method: "GET", body: .none)

    // On the loop's thread only, while the transfer runs.
    var connection: UpstreamConnection?
    var reader = UpstreamResponseReader(answersHead: false)
    /// Bytes of the head sent so far.
    var headSent = 0
    /// The body still has bytes to come from the client (or its last chunk to go).
    var uploading = false
    /// The client has no body bytes ready: the upload waits for `unpause`.
    var uploadWaits = false
    /// Bytes of the body were taken from the client: the request cannot be sent again.
    var bodyTaken = false
    /// The receiver refused a piece of the body: the bytes from there on wait in `heldBack` for `unpause`.
    var receivingPaused = false
    var heldBack: [UInt8] = []
    /// The request was sent again once, on a new connection, after a kept-alive one turned out closed.
    var retried = false

    init(client: PlainUpstreamClient) {
        self.client = client
    }

    /// The request's head is in `text` already: only what reports on it is set here.
    func configure(_ request: UpstreamRequest, receiver: UpstreamTransferReceiver) {
        self.receiver = receiver
        self.request = request
    }

    func unpause() {
        client.unpause(self)
    }

    func release() {
        receiver = nil
    }

    /// Made ready to be sent (again, on a retry).
    func prepareToSend() {
        reader = UpstreamResponseReader(answersHead: request.method == "HEAD")
        headSent = 0
        uploading = request.body != .none
        uploadWaits = false
        receivingPaused = false
        heldBack.removeAll()
    }
}
