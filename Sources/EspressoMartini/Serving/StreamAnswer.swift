/// A `"stream"` response decided for one request: its status and headers (rendered, with `"template":
/// true`), and its chunks, which render when they are sent against what the request's templates see. A
/// class, so that every `Decision` stays as small as it was without streams.
public final class StreamAnswer: Sendable {
    public let answer: ExchangeAnswer
    /// In sending order, the global headers included.
    public let headers: [HTTPHeader]
    public let stream: ResponseStream
    /// What the chunks' templates see; nil for chunks without templates.
    private let templates: Templates?

    struct Templates: Sendable {
        let model: RequestModel
        let cache: PanRequestCache?
        let environment: TemplateEnvironment
    }

    init(answer: ExchangeAnswer, headers: [HTTPHeader], stream: ResponseStream, templates: Templates?) {
        self.answer = answer
        self.headers = headers
        self.stream = stream
        self.templates = templates
    }

    /// The bytes of chunk `index` as sent now: each chunk sees its own `now` and `uuid`, the request's
    /// call number and its session's cache. On the connection's thread, while the request lasts (the
    /// request model reads the request where the server keeps it).
    public func bytes(ofChunk index: Int) -> [UInt8] {
        stream.chunks[index].bytes {
            guard let templates else { preconditionFailure("a templated chunk in a stream without templates") }
            return ResponseTemplateContext(
                model: templates.model, call: answer.call, cache: templates.cache, environment: templates.environment)
        }
    }
}
