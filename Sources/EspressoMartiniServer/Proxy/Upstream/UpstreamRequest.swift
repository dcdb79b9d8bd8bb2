/// One request to the target, as libcurl is told it; its URL and header lines are in the transfer's `text`.
struct UpstreamRequest: Sendable, Equatable {
    /// The body the request carries: none, one of this many bytes (`Content-Length`), or one of unknown
    /// length (sent chunked).
    enum Body: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    var method: String
    var body: Body
}
