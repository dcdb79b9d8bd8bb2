/// A body as a sending hands it over to be queued (`Sender.deliver`), where a slow network paces it.
enum OutgoingBody {
    /// Bytes in memory sent without a copy, kept valid by `owner`.
    case memory(UnsafeRawBufferPointer, owner: AnyObject)
    /// Bytes made for this request, copied into the response.
    case copied([UInt8])
    /// An open file of `size` bytes, taken over (sent with sendfile at full speed).
    case file(descriptor: Int32, size: Int)
    /// Bytes read from `source` as libmicrohttpd asks: `size` of them (nil: unknown, sent chunked), in
    /// blocks of at most `blockSize`.
    case source(BodySource, size: UInt64?, blockSize: Int)
}
