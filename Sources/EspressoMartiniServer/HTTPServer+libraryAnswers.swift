import EspressoMartini

// The requests libmicrohttpd answers itself, before a route is chosen (doc/limits.md): answered with the
// server's JSON errors instead of the library's HTML pages, journaled and in the access log like any other.
extension HTTPServer {
    func libraryAnswers(_ status: UInt32, on connection: HTTPConnection) -> Bool? {
        let headersComplete = connection.headersComplete
        let chunked = headersComplete && connection.headers.firstValue(named: "transfer-encoding") != nil
        // libmicrohttpd 0.9.75 sends the status line and headers of an answer it makes once the headers are in
        // twice (before a chunked body, once): a body after them would be read as the second head. Such an
        // answer has none.
        let withBody = !headersComplete || chunked
        let globalHeaders = service.served.tree.globalHeaders
        let made =
            withBody
            ? GeneratedAnswer.error(
                status, Self.libraryMessage(status, headersComplete: headersComplete), globalHeaders: globalHeaders)
            : GeneratedAnswer.empty(status, globalHeaders: globalHeaders)
        guard let response = HTTPResponse(copying: made.body, headers: made.headers) else { return nil }
        let queued = connection.queue(response, status: status)
        if let journal {
            let entry = JournalEntry(
                time: .now, method: "", path: "", query: "", body: [], bodySize: 0, route: nil, response: nil,
                status: Int(status))
            _ = journal.record(entry) { connection.headers.pack(into: &$0) }
        }
        sender.accessLog?(
            AccessLogRecord(
                method: "-", path: "-", status: status, exchange: nil, position: 0, responseCount: 0,
                hundredthsOfMilliseconds: 0))
        return queued
    }

    /// What the request did wrong, for a status libmicrohttpd answers with.
    static func libraryMessage(_ status: UInt32, headersComplete: Bool) -> String {
        let memory = "the \(ConnectionMemory.bytes / 1024) KiB a connection has for the request line and headers"
        switch status {
        case 414: return "the request line does not fit in \(memory) (doc/limits.md)"
        case 431: return "the request's headers do not fit in \(memory) (doc/limits.md)"
        case 413: return "a Content-Length or chunk size beyond 64 bits"
        case 505: return "this HTTP version is not served: send HTTP/1.1 or HTTP/1.0"
        case 400 where headersComplete: return "the request's chunked body is malformed"
        case 400: return "the request line or a header line is malformed"
        default: return "the request cannot be read as HTTP/1.1"
        }
    }
}
