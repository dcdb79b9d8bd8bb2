/// One request's call of a script: the exchange's answer it computes (the tree, the call number), the
/// script, the request as conditions and templates read it, the cache of the request's session, and what
/// templates see besides (for `Body.template` and template data). Made on the thread that received the
/// request and handed to the engine while the connection is suspended: nothing else reads it meanwhile.
public struct ScriptJob: @unchecked Sendable {
    public let answer: ExchangeAnswer
    public let script: ResponseScript
    public let model: RequestModel
    public let cache: PanRequestCache
    public let templates: TemplateEnvironment

    public init(
        answer: ExchangeAnswer, script: ResponseScript, model: RequestModel, cache: PanRequestCache,
        templates: TemplateEnvironment
    ) {
        self.answer = answer
        self.script = script
        self.model = model
        self.cache = cache
        self.templates = templates
    }

    /// What a template of this call sees (doc/templates.md): the request, `cache` (as published), `call`,
    /// `now`, `uuid` and `mockServer`, with `data`'s members on top.
    public func templateContext(adding data: JSONValue? = nil) -> some MustacheContext {
        ResponseTemplateContext(model: model, call: answer.call, cache: cache, environment: templates, data: data)
    }
}
