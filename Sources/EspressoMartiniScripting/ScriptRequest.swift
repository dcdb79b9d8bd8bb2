import EspressoMartini

/// The request as the prelude reads it, as JSON text (§12's wrapper is built from it in the engine):
/// `method`, `path`, `query` (raw, or null), `body` (text, or null), `headers` (lower-case names, a
/// repeated header's values as an array), `pathParameters`, `queryParameters` (a repeated name's values
/// as an array), `formParameters` (for a form body, else empty), `contentType` (the media type, lower
/// case, `""` without one) and `call`. Built on the thread that received the request.
public enum ScriptRequest {
    public static func json(_ model: RequestModel, call: Int) -> String {
        let request = model.request
        let contentType = mediaType(of: model.headerValues("content-type").first ?? "")
        var form = JSONValue.object([])
        if contentType == "application/x-www-form-urlencoded" {
            form = grouped(model.formParameters.fields.map { ($0.name, $0.value) })
        }
        let document = JSONValue.object([
            JSONMember(key: "method", value: .string(request.method)),
            JSONMember(key: "path", value: .string(request.path)),
            JSONMember(key: "query", value: request.rawQuery.isEmpty ? .null : .string(request.rawQuery)),
            JSONMember(key: "body", value: model.bodyText.map(JSONValue.string) ?? .null),
            JSONMember(key: "headers", value: grouped(model.headers.map { ($0.name.lowercased(), $0.value) })),
            JSONMember(key: "pathParameters", value: .object(model.pathParameters.map { JSONMember(key: $0.name, value: .string($0.value)) })),
            JSONMember(key: "queryParameters", value: grouped(model.queryParameters.fields.map { ($0.name, $0.value) })),
            JSONMember(key: "formParameters", value: form),
            JSONMember(key: "contentType", value: .string(contentType)),
            JSONMember(key: "call", value: .integer(Int64(call))),
        ])
        return document.compactText
    }

    /// `application/json; charset=utf-8` → `application/json`.
    static func mediaType(of contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
    }

    /// Name/value pairs as an object in first-seen order; a name seen more than once gets an array.
    static func grouped(_ pairs: [(String, String)]) -> JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in pairs {
            if values[name] == nil { order.append(name) }
            values[name, default: []].append(value)
        }
        return .object(order.map { name in
            let all = values[name]!
            return JSONMember(key: name, value: all.count == 1 ? .string(all[0]) : .array(all.map(JSONValue.string)))
        })
    }
}
