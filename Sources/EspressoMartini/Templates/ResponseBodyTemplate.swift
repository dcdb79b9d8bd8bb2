/// The body of a templated response, compiled when the tree loads.
public enum ResponseBodyTemplate: Sendable, Equatable {
    case none
    /// An inline string or a `response_file`: `{{name}}` escaped as the body's content type asks.
    case text(MustacheTemplate, escaping: MustacheEscaping)
    /// An inline JSON value whose strings are templates.
    case json(JSONBodyTemplate)

    /// Appends the body rendered against `context` to `output`.
    public func render(_ context: some MustacheContext, into output: inout [UInt8]) {
        switch self {
        case .none: break
        case .text(let template, let escaping): template.render(context, escaping: escaping, into: &output)
        case .json(let template): template.render(context, into: &output)
        }
    }
}
