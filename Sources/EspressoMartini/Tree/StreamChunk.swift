/// One chunk of a `"stream"` response (doc/streams-and-networks.md): sent after its delay (counted from
/// the previous chunk), as one write. Its bytes are framed when the tree loads, or with `"template": true`
/// rendered and framed when the chunk is sent.
public struct StreamChunk: Sendable, Equatable {
    public enum Content: Sendable, Equatable {
        /// The bytes on the wire, framed once (an event, a line of NDJSON, text as is); empty for a pause.
        case literal([UInt8])
        /// A Server-Sent Event whose fields are templates.
        case event(EventTemplate)
        /// Raw bytes from a template: text as rendered, or a JSON value's compact text and a newline.
        case raw(ResponseBodyTemplate, newline: Bool)
    }

    /// A Server-Sent Event's fields as templates; `data` text or JSON whose strings are templates.
    public struct EventTemplate: Sendable, Equatable {
        let comment: MustacheTemplate?
        let event: MustacheTemplate?
        let id: MustacheTemplate?
        let retry: Int?
        let data: ResponseBodyTemplate?
    }

    public let delay: ResponseDelay
    public let content: Content

    public init(delay: ResponseDelay, content: Content) {
        self.delay = delay
        self.content = content
    }

    /// Whether the chunk sends nothing: it only waits.
    public var isPause: Bool { content == .literal([]) }

    /// The chunk's bytes on the wire; `context` (called at most once) is what templates see.
    public func bytes<Context: MustacheContext>(_ context: () -> Context) -> [UInt8] {
        switch content {
        case .literal(let bytes):
            return bytes
        case .event(let template):
            let context = context()
            func text(_ field: MustacheTemplate?) -> [UInt8]? {
                guard let field else { return nil }
                var output: [UInt8] = []
                field.render(context, escaping: .none, into: &output)
                return output
            }
            var data: [UInt8]?
            if let body = template.data {
                data = []
                body.render(context, into: &data!)
            }
            return ServerSentEvent(
                comment: text(template.comment), event: text(template.event), id: text(template.id),
                retry: template.retry, data: data
            ).framed()
        case .raw(let body, let newline):
            var output: [UInt8] = []
            body.render(context(), into: &output)
            if newline { output.append(UInt8(ascii: "\n")) }
            return output
        }
    }
}
