import EspressoMartini
import EspressoMartiniYAML

/// The request as the prelude reads it, as JSON text (doc/scripts.md's wrapper is built from it in the
/// engine): the parts every template sees too (`RequestModel.part`) but the body, which goes to the engine
/// beside it as a string of its own so that a JSON body is parsed once there; then `contentType` (the media
/// type), `call`, and `bodyYAML` for a YAML body that parses. Built on the thread that received the request.
public enum ScriptRequest {
    /// The parts sent; `body`, `bodyJSON` and `pathComponents` the prelude makes itself.
    static let parts = RequestModel.partNames.filter { !["body", "bodyJSON", "pathComponents"].contains($0) }

    public static func json(_ model: RequestModel, call: Int) -> String {
        var members = parts.map { JSONMember(key: $0, value: model.part($0) ?? .null) }
        let contentType = model.mediaType
        members.append(JSONMember(key: "contentType", value: .string(contentType)))
        if yamlTypes.contains(contentType), let body = model.request.body, !model.bodyTooLarge, let value = YAMLReader.parse(body) {
            members.append(JSONMember(key: "bodyYAML", value: value))
        }
        members.append(JSONMember(key: "call", value: .integer(Int64(call))))
        return JSONValue.object(members).compactText
    }

    /// The media types whose body the engine gets as `bodyYAML`.
    static let yamlTypes: Set<String> = ["application/yaml", "application/x-yaml", "text/yaml"]
}
