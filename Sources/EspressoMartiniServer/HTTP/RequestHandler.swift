/// What the daemon calls, on its loop's thread, for each request: `requestStarted` once the request line is
/// read (its state is kept until `requestCompleted`), `received` with the headers, then with each piece of
/// body, then once more with an empty body when the request is complete (and again after a `resume`).
protocol RequestHandler: AnyObject, Sendable {
    func requestStarted(uri: UnsafePointer<CChar>?) -> RequestState
    /// False closes the connection without an answer.
    func received(
        _ state: RequestState, on connection: HTTPConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        body: UnsafeRawBufferPointer
    ) -> Bool
    func requestCompleted(_ state: RequestState)
    /// libmicrohttpd is about to answer the request on `connection` itself with `status`, before `received`
    /// (or, for a malformed chunked body, between two calls of it): queues the server's answer instead and
    /// returns whether it was queued; nil leaves the library's.
    func libraryAnswers(_ status: UInt32, on connection: HTTPConnection) -> Bool?
}
