/// The memory libmicrohttpd gives each connection. The request line and headers must fit in it, and the
/// answer's status line and headers after them. libmicrohttpd zeroes all of it after every request, so its
/// size is paid on every request: 16 KiB (Node.js's limit for a request's headers) rather than the default
/// 32 KiB saves about 0.2 µs of each (doc/performance.md).
public enum ConnectionMemory {
    public static let bytes = 16 * 1024

    /// Past this, a response's configured headers earn a warning when the tree loads: they leave little
    /// room for the request's.
    static let headersWarnedAbove = 8 * 1024

    /// What an answer's status line and headers are kept: a request leaving less of the connection's memory
    /// is refused with `414` or `431`, answered outside of it.
    public static let answerRoom = 1024

    /// What the status line and the headers libmicrohttpd adds (`Date`, `Content-Length`, `Connection`) take.
    public static let answerHeadBytes = 256

    /// What a response's configured `headers` leave too little room for, or nil.
    static func warning(about headers: [HTTPHeader]) -> String? {
        let size = headers.reduce(0) { $0 + $1.name.utf8.count + 2 + $1.value.utf8.count + 2 }  // `Name: value` CRLF
        guard size > headersWarnedAbove else { return nil }
        let room = bytes - answerHeadBytes - size
        let what =
            "these headers take \(size) bytes of the \(bytes / 1024) KiB a connection has for the request's headers and the answer's"
        let advice = "keep a response's headers to a few KiB (doc/limits.md)"
        guard room > 0 else {
            return "\(what): this response is never sent, its connection is closed instead; \(advice)"
        }
        return "\(what): a request bringing more than about \(room) bytes of its own gets no answer; \(advice)"
    }
}
