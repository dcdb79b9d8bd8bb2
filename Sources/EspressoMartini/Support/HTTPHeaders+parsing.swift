/// Reads a `headers` object, shared by response objects and the server configuration:
/// each value a string, or an array of strings for a repeated header.
public enum HeadersParser {
    /// Framing headers the server derives from the body; a copied `Transfer-Encoding: chunked` would
    /// otherwise make a HEAD answer carry chunk bytes.
    static let serverManaged: Set<String> = ["content-length", "transfer-encoding"]

    static func parse(
        _ value: JSONValue, at path: [String], file: String, map: some JSONPositions,
        into diagnostics: inout Diagnostics
    ) -> [HTTPHeader] {
        guard case .object(let members) = value else {
            diagnostics.error(
                file, map.value(path), "'headers' must be an object of header names to strings, found \(value.kindName)"
            )
            return []
        }
        var headers: [HTTPHeader] = []
        for member in members {
            let memberPath = path + [member.key]
            guard isToken(member.key) else {
                diagnostics.error(
                    file, map.key(memberPath),
                    "'\(member.key)' is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)")
                continue
            }
            if serverManaged.contains(member.key.lowercased()) {
                diagnostics.warning(
                    file, map.key(memberPath),
                    "'\(member.key)' is set by the server from the body; this header is not sent")
                continue
            }
            let values: [(String, [String])]
            switch member.value {
            case .string(let text):
                values = [(text, memberPath)]
            case .null:
                headers.append(HTTPHeader(name: member.key, value: HTTPHeader.withheld))
                continue
            case .object:
                guard let text = bytesValue(member.value, of: member.key, at: memberPath, file, map, &diagnostics)
                else { continue }
                values = [(text, memberPath)]
            case .array(let elements) where !elements.isEmpty:
                values = elements.enumerated().compactMap { index, element in
                    let elementPath = memberPath + [String(index)]
                    if case .string(let text) = element { return (text, elementPath) }
                    if case .object = element {
                        return bytesValue(element, of: member.key, at: elementPath, file, map, &diagnostics).map {
                            ($0, elementPath)
                        }
                    }
                    diagnostics.error(
                        file, map.value(elementPath),
                        "header '\(member.key)' values must be strings, found \(element.kindName)")
                    return nil
                }
            default:
                diagnostics.error(
                    file, map.value(memberPath),
                    "header '\(member.key)' must be a string or a non-empty array of strings, found \(member.value.kindName)"
                )
                continue
            }
            for (text, valuePath) in values {
                if text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
                    diagnostics.error(
                        file, map.value(valuePath), "header '\(member.key)' value must not contain line breaks")
                } else {
                    headers.append(HTTPHeader(name: member.key, value: text))
                }
            }
        }
        return headers
    }

    /// The value `{"base64": "…"}` stands for: bytes sent as they are (those that are not UTF-8 kept as
    /// `HeaderBytes` says); nil once the problem is in `diagnostics`.
    private static func bytesValue(
        _ value: JSONValue, of name: String, at path: [String], _ file: String, _ map: some JSONPositions,
        _ diagnostics: inout Diagnostics
    ) -> String? {
        guard case .object(let members) = value, members.count == 1, members[0].key == "base64",
            case .string(let text) = members[0].value
        else {
            diagnostics.error(
                file, map.value(path),
                "header '\(name)' must be a string, an array of strings, null, or {\"base64\": \"…\"} for bytes that are not UTF-8"
            )
            return nil
        }
        switch Base64.decode(text) {
        case .failure(let problem):
            diagnostics.error(
                file, map.value(path + ["base64"]), "header '\(name)' is not base64: \(problem.message)")
            return nil
        case .success(let bytes):
            return HeaderBytes.value(bytes)
        }
    }

    /// RFC 9110 token characters: what a header's name may be.
    public static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }
}
