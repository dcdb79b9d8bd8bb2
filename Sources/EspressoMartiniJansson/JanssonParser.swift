import CJansson
import EspressoMartini

/// Parses JSON with jansson and converts the document into a `JSONValue` at once, so no `json_t`
/// outlives this file. Duplicate keys are errors; positions come from jansson's `json_error_t`.
public struct JanssonParser: JSONParser {
    public init() {}

    public func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        var error = json_error_t()
        let flags = Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY)
        let root = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { json_loadb($0, buffer.count, flags, &error) } ?? nil
        }
        guard let root else {
            let text = withUnsafeBytes(of: error.text) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            let detail = bytes.isEmpty ? "the file is empty" : text
            let position = SourcePosition(line: Int(error.line), column: Int(error.column))
            return .failure(JSONSyntaxError(position: position, message: "invalid JSON: \(detail)"))
        }
        defer { json_decref(root) }
        return .success(Self.convert(root))
    }

    private static func convert(_ json: UnsafeMutablePointer<json_t>) -> JSONValue {
        switch em_json_typeof(json) {
        case JSON_OBJECT:
            var members: [JSONMember] = []
            var iterator = json_object_iter(json)
            while let current = iterator {
                let key = String(cString: json_object_iter_key(current))
                members.append(JSONMember(key: key, value: convert(json_object_iter_value(current))))
                iterator = json_object_iter_next(json, current)
            }
            return .object(members)
        case JSON_ARRAY:
            return .array((0..<json_array_size(json)).map { convert(json_array_get(json, $0)) })
        case JSON_STRING:
            let length = json_string_length(json)
            let text = UnsafeBufferPointer(start: json_string_value(json), count: length).withMemoryRebound(
                to: UInt8.self
            ) {
                String(decoding: $0, as: UTF8.self)
            }
            return .string(text)
        case JSON_INTEGER:
            return .integer(Int64(json_integer_value(json)))
        case JSON_REAL:
            return .real(json_real_value(json))
        case JSON_TRUE:
            return .bool(true)
        case JSON_FALSE:
            return .bool(false)
        default:
            return .null
        }
    }
}
