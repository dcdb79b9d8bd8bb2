/// What `"template": true` makes of a response (doc/templates.md): its body and its header values as Mustache
/// templates, compiled when the tree loads and rendered for every request. A class: responses are
/// copied often, and most have none.
public final class ResponseTemplate: Sendable, Equatable {
    public let body: ResponseBodyTemplate
    /// The response's own headers, in file order.
    public let headers: [HeaderTemplate]

    public init(body: ResponseBodyTemplate, headers: [HeaderTemplate]) {
        self.body = body
        self.headers = headers
    }

    /// The response's own headers rendered against `context`. A header value is sent as rendered,
    /// except that control characters from the request (a line break, NUL) become spaces: a request
    /// can never add a header or end one early.
    public func renderedHeaders(_ context: some MustacheContext) -> [HTTPHeader] {
        headers.map { header in
            var value: [UInt8] = []
            header.value.render(context, escaping: .none, into: &value)
            for index in value.indices
            where value[index] < 0x20 && value[index] != UInt8(ascii: "\t") || value[index] == 0x7F {
                value[index] = UInt8(ascii: " ")
            }
            return HTTPHeader(name: header.name, value: String(decoding: value, as: UTF8.self))
        }
    }

    /// The body rendered against `context`.
    public func renderedBody(_ context: some MustacheContext) -> [UInt8] {
        var output: [UInt8] = []
        body.render(context, into: &output)
        return output
    }

    public static func == (a: ResponseTemplate, b: ResponseTemplate) -> Bool {
        a.body == b.body && a.headers == b.headers
    }
}
