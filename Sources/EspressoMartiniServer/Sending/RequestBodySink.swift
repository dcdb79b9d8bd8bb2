/// Where a request's body goes as it arrives when its decision sends it on (a forward: to the proxy's
/// target), besides the part the server keeps for the journal; told when libmicrohttpd is done with the
/// request. On the request's loop.
protocol RequestBodySink: AnyObject {
    /// A piece of the body.
    func push(_ bytes: UnsafeRawBufferPointer)
    /// libmicrohttpd has finished with the request (answered, or the client went away).
    func requestEnded()
}
