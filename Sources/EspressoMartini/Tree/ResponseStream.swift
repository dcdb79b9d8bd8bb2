/// A `"stream"` response's body (doc/streams-and-networks.md): chunks sent one after another on one
/// connection, each after its own delay, framed as Server-Sent Events (`text/event-stream`) or sent raw
/// (NDJSON, text); with `stream_repeat`, from the first again after the last until the client goes. A
/// class, so that every configured response stays as small as it was without streams.
public final class ResponseStream: Sendable, Equatable {
    public enum Framing: Sendable, Equatable {
        case serverSentEvents
        case raw
    }

    public let framing: Framing
    public let chunks: [StreamChunk]
    public let repeats: Bool
    /// The `Content-Type` the chunks imply (`text/event-stream`, `application/x-ndjson`, text), sent when
    /// the response's headers name none.
    public let derivedContentType: String
    /// The `stream` array as the configuration gives it, for `endpoints --json` and `explain --json`.
    public let configured: JSONValue

    public init(
        framing: Framing, chunks: [StreamChunk], repeats: Bool, derivedContentType: String, configured: JSONValue
    ) {
        self.framing = framing
        self.chunks = chunks
        self.repeats = repeats
        self.derivedContentType = derivedContentType
        self.configured = configured
    }

    public static func == (a: ResponseStream, b: ResponseStream) -> Bool {
        a.framing == b.framing && a.chunks == b.chunks && a.repeats == b.repeats
            && a.derivedContentType == b.derivedContentType
            && a.configured == b.configured
    }

    public static let eventStream = "text/event-stream"
    public static let ndjson = "application/x-ndjson"

    /// `stream of 3 events, repeated`, as the listing and `explain` show it.
    public var summary: String {
        let unit = framing == .serverSentEvents ? "event" : "chunk"
        return "stream of \(chunks.count) \(unit)\(chunks.count == 1 ? "" : "s")" + (repeats ? ", repeated" : "")
    }
}
