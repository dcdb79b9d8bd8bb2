extension MustacheTemplate {
    /// Appends the template rendered against `context` to `output`; `{{name}}` is escaped with
    /// `escaping`. A missing value renders as nothing. Any thread may render a template.
    public func render(_ context: some MustacheContext, escaping: MustacheEscaping, into output: inout [UInt8]) {
        nodes.withUnsafeBufferPointer { nodes in
            names.withUnsafeBufferPointer { names in
                text.withUnsafeBufferPointer { text in
                    var stack: [JSONValue] = []
                    let renderer = MustacheRenderer(
                        nodes: nodes, names: names, text: text, root: context, escaping: escaping)
                    renderer.render(nodes.indices, stack: &stack, into: &output)
                }
            }
        }
    }

    /// The template rendered against `context` as text (for a header value, say).
    public func renderedText(_ context: some MustacheContext, escaping: MustacheEscaping) -> String {
        var output: [UInt8] = []
        render(context, escaping: escaping, into: &output)
        return String(decoding: output, as: UTF8.self)
    }
}
