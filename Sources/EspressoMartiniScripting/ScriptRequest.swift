import EspressoMartini

/// The request as the prelude reads it, as JSON text (§12's wrapper is built from it in the engine):
/// `method`, `path`, `query` (raw, or null), `headers` (lower-case names, a
/// repeated header's values as an array), `pathParameters`, `queryParameters` (a repeated name's values
/// as an array), `formParameters` (for a form body, else empty), `contentType` (the media type, lower
/// case, `""` without one), `call`, and `bodyYAML` for a YAML body that parses. The body goes to the engine beside it, as a string of its own, so
/// that a JSON body is parsed once. Built on the thread that received the request, straight into UTF-8 bytes.
public enum ScriptRequest {
    public static func json(_ model: RequestModel, call: Int) -> String {
        let request = model.request
        let contentType = ContentType.mediaType(of: model.headerValues("content-type").first ?? "")
        var out: [UInt8] = []
        out.reserveCapacity(512)
        func key(_ name: StaticString) {
            out.append(out.isEmpty ? UInt8(ascii: "{") : UInt8(ascii: ","))
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            out.append(contentsOf: "\":".utf8)
        }
        key("method"); JSONStringEscaping.appendQuoted(request.method, to: &out)
        key("path"); JSONStringEscaping.appendQuoted(request.path, to: &out)
        key("query"); if request.rawQuery.isEmpty { out.append(contentsOf: "null".utf8) } else { JSONStringEscaping.appendQuoted(request.rawQuery, to: &out) }
        key("headers"); appendGrouped(model.headers.map { ($0.name.lowercased(), $0.value) }, to: &out)
        key("pathParameters"); appendGrouped(model.pathParameters.map { ($0.name, $0.value) }, to: &out)
        key("queryParameters"); appendGrouped(model.queryParameters.fields.map { ($0.name, $0.value) }, to: &out)
        key("formParameters")
        appendGrouped(contentType == "application/x-www-form-urlencoded" ? model.formParameters.fields.map { ($0.name, $0.value) } : [], to: &out)
        key("contentType"); JSONStringEscaping.appendQuoted(contentType, to: &out)
        if yamlTypes.contains(contentType), let body = request.body, !model.bodyTooLarge, let value = YAMLReader.parse(body) {
            key("bodyYAML"); out.append(contentsOf: value.compactText.utf8)
        }
        key("call"); out.append(contentsOf: String(call).utf8)
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The media types whose body the engine gets as `bodyYAML`.
    static let yamlTypes: Set<String> = ["application/yaml", "application/x-yaml", "text/yaml"]

    /// Name/value pairs as an object in first-seen order; a name seen more than once gets an array.
    static func appendGrouped(_ pairs: [(String, String)], to out: inout [UInt8]) {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        out.append(UInt8(ascii: "{"))
        for (index, name) in order.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONStringEscaping.appendQuoted(name, to: &out)
            out.append(UInt8(ascii: ":"))
            let all = values[name]!
            if all.count == 1 {
                JSONStringEscaping.appendQuoted(all[0], to: &out)
            } else {
                out.append(UInt8(ascii: "["))
                for (position, value) in all.enumerated() {
                    if position > 0 { out.append(UInt8(ascii: ",")) }
                    JSONStringEscaping.appendQuoted(value, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}
