import CJavaScriptCore
import EspressoMartini
import EspressoMartiniYAML

/// A part of the request object scripts get (doc/scripts.md), made into a JavaScript value when a script
/// first reads it: a trivial script reads one or two parts, and no part is built, serialized or parsed
/// for nothing. The raw values are the prelude's indexes; the parts templates see too come from
/// `RequestModel.part`, and a JSON body goes to the engine's own JSON parser as text.
enum RequestPart: Int {
    case method, headers, path, query, body, pathComponents, pathParameters, queryParameters, bodyJSON, bodyYAML,
        formParameters
    /// Made by the prelude from the other parts.
    case graphQLRequest
    case call

    /// The media types whose body scripts get as `bodyYAML`.
    static let yamlTypes: Set<String> = ["application/yaml", "application/x-yaml", "text/yaml"]

    /// The part's value; `scratch` holds its JSON text meanwhile (kept by the VM, so that no call allocates
    /// it anew).
    func value(
        of job: ScriptJob, scratch: inout [UInt8], _ js: JavaScriptCoreLibrary, _ context: JSContextRef
    ) -> JSValueRef? {
        let model = job.model
        switch self {
        case .method: return ScriptVM.makeString(js, context, model.request.method)
        case .path: return ScriptVM.makeString(js, context, model.request.path)
        case .query:
            return model.request.rawQuery.isEmpty
                ? js.valueMakeNull(context) : ScriptVM.makeString(js, context, model.request.rawQuery)
        // The first 1 MiB of a longer body (doc/limits.md).
        case .body:
            guard let body = model.request.body else { return js.valueMakeNull(context) }
            return body.withUnsafeBufferPointer { ScriptVM.makeString(js, context, $0) }
        case .headers: return Self.json(model, "headers", &scratch, js, context)
        case .pathComponents: return Self.json(model, "pathComponents", &scratch, js, context)
        case .pathParameters: return Self.json(model, "pathParameters", &scratch, js, context)
        case .queryParameters: return Self.json(model, "queryParameters", &scratch, js, context)
        case .formParameters: return Self.json(model, "formParameters", &scratch, js, context)
        case .bodyJSON:
            let type = model.mediaType
            guard type == "application/json" || type.hasSuffix("+json"), let body = model.request.body else {
                return js.valueMakeNull(context)
            }
            return body.withUnsafeBufferPointer { ScriptVM.parseJSON(js, context, $0) } ?? js.valueMakeNull(context)
        case .bodyYAML:
            guard Self.yamlTypes.contains(model.mediaType), !model.bodyTooLarge, let body = model.request.body,
                let value = YAMLReader.parse(body)
            else {
                return js.valueMakeNull(context)
            }
            scratch.removeAll(keepingCapacity: true)
            value.write(to: &scratch)
            return scratch.withUnsafeBufferPointer { ScriptVM.parseJSON(js, context, $0) } ?? js.valueMakeNull(context)
        case .graphQLRequest: return js.valueMakeNull(context)
        case .call: return js.valueMakeNumber(context, Double(job.answer.call))
        }
    }

    private static func json(
        _ model: RequestModel, _ name: String, _ scratch: inout [UInt8], _ js: JavaScriptCoreLibrary,
        _ context: JSContextRef
    ) -> JSValueRef? {
        scratch.removeAll(keepingCapacity: true)
        model.writePart(name, to: &scratch)
        return scratch.withUnsafeBufferPointer { ScriptVM.parseJSON(js, context, $0) } ?? js.valueMakeNull(context)
    }
}
