extension NetworkExchange {
    /// One chunk of a `.stream` response, sent `after` its delay from the previous chunk (from the headers
    /// for the first). A stream's chunks are all events or all bodies (doc/streams-and-networks.md).
    public enum StreamChunk: Sendable, Hashable {
        /// A Server-Sent Event: `data` (text, one `data:` line per line, or any other JSON value written
        /// compactly), `event`, `id`, `retry` (milliseconds), `comment`.
        case event(
            data: JSONValue? = nil, event: String? = nil, id: String? = nil, retry: Int? = nil,
            comment: String? = nil, after: Delay? = nil)
        /// A raw write: a string as it is, any other JSON value compactly followed by a newline (NDJSON).
        case body(JSONValue, after: Delay? = nil)
        /// Nothing sent: a wait.
        case pause(Delay)

        /// As a chunk of `stream` is written.
        var json: JSONValue {
            var members: [String: JSONValue] = [:]
            switch self {
            case .event(let data, let event, let id, let retry, let comment, let after):
                members["data"] = data
                members["event"] = event.map { .string($0) }
                members["id"] = id.map { .string($0) }
                members["retry"] = retry.map { .integer($0) }
                members["comment"] = comment.map { .string($0) }
                members["delay"] = after?.json
            case .body(let body, let after):
                members["body"] = body
                members["delay"] = after?.json
            case .pause(let delay):
                members["delay"] = delay.json
            }
            return .object(members)
        }
    }
}
