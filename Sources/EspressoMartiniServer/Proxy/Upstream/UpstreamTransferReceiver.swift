/// What a transfer's callbacks report, on the thread that drives it (`CurlUpstreamClient`'s).
protocol UpstreamTransferReceiver: AnyObject {
    /// One line of the answer's head (the status line, a header, the empty line that ends it), with its CR LF:
    /// libcurl's transfers hand the head over this way.
    func transferHeaderLine(_ line: UnsafeRawBufferPointer)
    /// The answer's final head, whole: the client of its own reads it this way.
    func transferHead(_ head: UpstreamHead)
    /// Bytes of the answer's body, as received (not content-decoded); false pauses the transfer's receiving
    /// without taking them: they come again once `CurlTransfer.unpause()` is called.
    func transferBody(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Bytes of the request's body for the target.
    func transferUpload(into buffer: UnsafeMutableRawBufferPointer) -> UploadStep
}
