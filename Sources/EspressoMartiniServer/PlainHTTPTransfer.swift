/// One request to a plain-HTTP target through `PlainHTTPClient`, reused for request after request: the
/// request's head is written once from `text` (`configure`, any thread), then the client sends it and
/// the body on a connection to the target and reads the answer back (on the forwarding thread).
final class PlainHTTPTransfer: UpstreamTransfer, @unchecked Sendable {
    let text = UpstreamRequestText()
    private unowned let client: PlainHTTPClient
    /// `Host: 127.0.0.1:9000` with its CR LF: the target's own.
    private let hostLine: [UInt8]
    /// Retained while the transfer runs: the forwarded exchange.
    private(set) var receiver: HTTPClientTransferReceiver?
    private(set) var request = UpstreamRequest(method: "GET", body: .none)
    /// The request line and headers as sent.
    private(set) var head: [UInt8] = []

    // On the forwarding thread only, while the transfer runs.
    var connection: UpstreamConnection?
    var reader = UpstreamResponseReader(answersHead: false)
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

    init(client: PlainHTTPClient, authority: String) {
        self.client = client
        hostLine = Array("Host: \(authority)\r\n".utf8)
        head.reserveCapacity(1024)
    }

    /// Writes the request's head from `text`: its URL's path and query on the request line, `Host`, the
    /// header lines (`Name;` is a header with an empty value; `Name:`, which tells libcurl not to add a
    /// header of its own, is left out), and the body's framing.
    func configure(_ request: UpstreamRequest, receiver: HTTPClientTransferReceiver) {
        self.receiver = receiver
        self.request = request
        head.removeAll(keepingCapacity: true)
        head.append(contentsOf: request.method.utf8)
        head.append(UInt8(ascii: " "))
        let bytes = text.bytes
        var urlEnd = 0
        while bytes[urlEnd] != 0 { urlEnd += 1 }
        var pathStart = 0
        while pathStart + 2 < urlEnd, !(bytes[pathStart] == UInt8(ascii: ":") && bytes[pathStart + 1] == UInt8(ascii: "/") && bytes[pathStart + 2] == UInt8(ascii: "/")) {
            pathStart += 1
        }
        pathStart += 3
        while pathStart < urlEnd, bytes[pathStart] != UInt8(ascii: "/") { pathStart += 1 }
        if pathStart >= urlEnd {
            head.append(UInt8(ascii: "/"))
        } else {
            head.append(contentsOf: UnsafeBufferPointer(start: bytes + pathStart, count: urlEnd - pathStart))
        }
        head.append(contentsOf: " HTTP/1.1\r\n".utf8)
        head.append(contentsOf: hostLine)
        for start in text.lineStarts {
            var end = start
            var colon: Int?
            while bytes[end] != 0 {
                if colon == nil, bytes[end] == UInt8(ascii: ":") { colon = end }
                end += 1
            }
            guard end > start else { continue }
            if colon == end - 1 { continue }
            if colon == nil, bytes[end - 1] == UInt8(ascii: ";") {
                head.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - 1 - start))
                head.append(UInt8(ascii: ":"))
            } else {
                head.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - start))
            }
            head.append(contentsOf: "\r\n".utf8)
        }
        switch request.body {
        case .none: break
        case .length(let length): head.append(contentsOf: "Content-Length: \(length)\r\n".utf8)
        case .chunked: head.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        }
        head.append(contentsOf: "\r\n".utf8)
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
        uploading = request.body != .none
        uploadWaits = false
        receivingPaused = false
        heldBack.removeAll()
    }
}
