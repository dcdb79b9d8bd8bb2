extension Decider {
    /// `answer` with its response rendered for `request` when that response is a template (§11); any
    /// other answer as it is. The headers are the template's, rendered, then the content type and the
    /// global headers, as for any response. `model` is the variants' model of this request, if they
    /// built one: the template shares its parses.
    func rendering(_ answer: ExchangeAnswer, for request: Request, model: RequestModel?) -> ExchangeAnswer {
        let response = answer.exchange.responses[answer.position]
        guard let template = response.template else { return answer }
        let context = ResponseTemplateContext(
            model: model ?? RequestModel(request, route: answer.exchange.route, parser: parser), call: answer.call, cache: request.session?.cache, environment: templates
        )
        let headers = response.effectiveHeaders(own: template.renderedHeaders(context), global: answer.tree.globalHeaders)
        return answer.sending(GeneratedAnswer(statusCode: answer.statusCode, headers: headers, body: template.renderedBody(context)))
    }
}
