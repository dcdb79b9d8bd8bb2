/// Produces a callback response's body (a truncated body, a stream), on the connection's thread.
class BodySource: @unchecked Sendable {
    /// Writes the bytes from `position` on into `buffer` (at most its count).
    func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        .broken
    }

    /// libmicrohttpd is done with the body: sent, cut short, or never sent. Once, on any thread.
    func closed() {}
}
