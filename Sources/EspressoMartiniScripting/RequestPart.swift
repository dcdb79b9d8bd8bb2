import CJavaScriptCore
import EspressoMartini
import EspressoMartiniYAML

/// A part of the request object scripts get (doc/scripts.md), made into a JavaScript value when a script
/// first reads it: a trivial script reads one or two parts, and no part is built, serialized or parsed
/// for nothing. The raw values are the prelude's indexes; the parts templates see too come from
/// `RequestModel.part`, and a JSON body goes to the engine's own JSON parser as text.
enum RequestPart: Int {
    case method, headers, path, query, body, pathComponents, pathParameters, queryParameters, bodyJSON, bodyYAML, formParameters
    /// Made by the prelude from the other parts.
    case graphQLRequest
    case call

    /// The media types whose body scripts get as `bodyYAML`.
    static let yamlTypes: Set<String> = ["application/yaml", "application/x-yaml", "text/yaml"]

    func value(of job: ScriptJob, _ js: JavaScriptCoreLibrary, _ context: JSContextRef) -> JSValueRef? {
        let model = job.model, request = model.request
        switch self {
        case .method: return ScriptVM.makeString(js, context, request.method)
        case .path: return ScriptVM.makeString(js, context, request.path)
        case .query: return request.rawQuery.isEmpty ? js.valueMakeNull(context) : ScriptVM.makeString(js, context, request.rawQuery)
        // The first 1 MiB of a longer body (doc/limits.md).
        case .body: return model.bodyText.map { ScriptVM.makeString(js, context, $0) } ?? js.valueMakeNull(context)
        case .headers: return Self.json(model.part("headers"), js, context)
        case .pathComponents: return Self.json(model.part("pathComponents"), js, context)
        case .pathParameters: return Self.json(model.part("pathParameters"), js, context)
        case .queryParameters: return Self.json(model.part("queryParameters"), js, context)
        case .formParameters: return Self.json(model.part("formParameters"), js, context)
        case .bodyJSON:
            let type = model.mediaType
            guard type == "application/json" || type.hasSuffix("+json"), let body = model.bodyText else { return js.valueMakeNull(context) }
            return ScriptVM.parseJSON(js, context, body) ?? js.valueMakeNull(context)
        case .bodyYAML:
            guard Self.yamlTypes.contains(model.mediaType), !model.bodyTooLarge, let body = request.body, let value = YAMLReader.parse(body) else {
                return js.valueMakeNull(context)
            }
            return Self.json(value, js, context)
        case .graphQLRequest: return js.valueMakeNull(context)
        case .call: return js.valueMakeNumber(context, Double(job.answer.call))
        }
    }

    private static func json(_ value: JSONValue?, _ js: JavaScriptCoreLibrary, _ context: JSContextRef) -> JSValueRef? {
        guard let value else { return js.valueMakeNull(context) }
        return ScriptVM.parseJSON(js, context, value.compactText) ?? js.valueMakeNull(context)
    }
}
