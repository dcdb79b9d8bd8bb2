/// What a server with a proxy remembers about one request, beside its `RequestState`: made only by such a
/// server, so that every request of a server without one carries a single nil reference. Touched on the
/// request's libmicrohttpd thread only.
final class ForwardingState {
    /// The request line's target as sent (path and query, not decoded), for the target.
    let rawTarget: String
    /// Whether the request has a body (`Content-Length` or `Transfer-Encoding`), and the length it announced.
    var hasBody = false
    var announcedBodySize: Int?
    /// The whole body has arrived (the access handler's last call).
    var bodyComplete = false
    /// The decision has been looked at once the body outgrew what conditions read.
    var checkedPastBodyLimit = false
    /// The request being forwarded to the proxy's target.
    var exchange: ForwardedExchange?

    init(rawTarget: String) {
        self.rawTarget = rawTarget
    }
}
