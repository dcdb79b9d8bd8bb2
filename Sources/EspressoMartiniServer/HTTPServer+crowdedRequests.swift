import EspressoMartini
import Glibc

// A request whose line and headers fill its connection's memory (doc/limits.md): libmicrohttpd read it, but an
// answer's status line and headers would not fit beside it, and it would close the connection without one. Such
// a request is answered `414` or `431` with the server's JSON error, written on the socket directly, journaled
// and logged; the connection is then closed.
extension HTTPServer {
    /// Whether the request, its headers just in, is answered here (the connection is then closed).
    func refusesCrowdedRequest(
        _ state: RequestState, on connection: HTTPConnection, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>
    ) -> Bool {
        let used = connection.requestMemory
        guard used > ConnectionMemory.bytes - ConnectionMemory.answerRoom else { return false }
        let lineBytes = strlen(method) + strlen(url) + state.query.utf8.count
        let lineIsLonger = lineBytes * 2 > connection.requestHeadSize
        let status: UInt32 = lineIsLonger ? 414 : 431
        let message =
            "the request line and headers take \(used) bytes of the \(ConnectionMemory.bytes / 1024) KiB a connection has, leaving too little for the answer: "
            + (lineIsLonger ? "shorten the URL" : "send fewer or shorter headers") + " (doc/limits.md)"
        let made = GeneratedAnswer.error(status, message, globalHeaders: service.served.tree.globalHeaders)
        _ = connection.sendDirectly(
            Self.answerBytes(made, reason: lineIsLonger ? "URI Too Long" : "Request Header Fields Too Large"))
        if let journal {
            let entry = JournalEntry(
                time: .now, method: String(cString: method), path: String(cString: url), query: state.query, body: [],
                bodySize: 0, route: nil, response: nil, status: Int(status))
            _ = journal.record(entry) { connection.headers.pack(into: &$0) }
        }
        sender.accessLog?(
            AccessLogRecord(
                method: String(cString: method), path: String(cString: url), status: status, exchange: nil,
                position: 0, responseCount: 0, hundredthsOfMilliseconds: 0))
        return true
    }

    /// The whole answer as it goes on the wire, closing the connection.
    static func answerBytes(_ answer: GeneratedAnswer, reason: String) -> [UInt8] {
        var head = "HTTP/1.1 \(answer.statusCode) \(reason)\r\nDate: \(httpDate())\r\nConnection: close\r\n"
        for header in answer.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(answer.body.count)\r\n\r\n"
        return Array(head.utf8) + answer.body
    }

    /// Now, as an HTTP date (`Wed, 02 Dec 2026 17:12:54 GMT`).
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
