extension MustacheTemplate {
    /// Appends the template rendered against `context` to `output`; `{{name}}` is escaped with
    /// `escaping`. A missing value renders as nothing. Any thread may render a template.
    public func render(_ context: some MustacheContext, escaping: MustacheEscaping, into output: inout [UInt8]) {
        var renderer = MustacheRenderer(template: self, root: context, escaping: escaping)
        renderer.render(nodes.indices, into: &output)
    }

    /// The template rendered against `context` as text (for a header value, say).
    public func renderedText(_ context: some MustacheContext, escaping: MustacheEscaping) -> String {
        var output: [UInt8] = []
        render(context, escaping: escaping, into: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
