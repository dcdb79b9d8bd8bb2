extension ConfiguredResponse {
    /// One line for `endpoints` and `explain`: `200 page-2.json`, `200 stream of 3 events`, `script
    /// order.js`, then what changes how it is sent (` delay 0.5s`, ` network 3g`, ` bandwidth 56kbit`,
    /// ` fault connection_reset`, ` template`).
    public var summary: String {
        let answer = content.map { "\($0.statusCode) " + (stream?.summary ?? $0.body.summary) } ?? script?.summary ?? ""
        return answer + (delay.map { " delay \($0.summary)" } ?? "") + (network?.summary ?? "")
            + (fault.map { " fault \($0.rawValue)" } ?? "")
            + (template != nil ? " template" : "")
    }

    /// The JSON members `endpoints --json` and `explain --json` give for what it answers with, as the
    /// configuration says it: `status_code`, then `response_file`, `body`, `body_base64` or `stream` and
    /// `stream_repeat`; or
    /// the script's source.
    /// `headers`: with its headers after the status (the listing's form).
    func answerMembers(headers withHeaders: Bool = false) -> [JSONMember] {
        guard let content else { return script.map { [$0.sourceMember] } ?? [] }
        var members = [JSONMember(key: "status_code", value: .integer(Int64(content.statusCode)))]
        if withHeaders { members.append(JSONMember(key: "headers", value: content.headersJSON)) }
        if let name = content.body.fileName { members.append(JSONMember(key: "response_file", value: .string(name))) }
        if case .inline(let value) = content.body { members.append(JSONMember(key: "body", value: value)) }
        if case .bytes(let bytes) = content.body {
            members.append(JSONMember(key: "body_base64", value: .string(Base64.encode(bytes))))
        }
        if let stream {
            members.append(JSONMember(key: "stream", value: stream.configured))
            members.append(JSONMember(key: "stream_repeat", value: .bool(stream.repeats)))
        }
        return members
    }

    /// The JSON members `endpoints --json` and `explain --json` give after the body: `delay` (null for the
    /// global one), then `network`, `bandwidth`, `fault` and `"template": true` when given.
    var sendingMembers: [JSONMember] {
        var members = [JSONMember(key: "delay", value: delay?.json ?? .null)]
        members += network?.members ?? []
        if let fault { members.append(JSONMember(key: "fault", value: .string(fault.rawValue))) }
        if template != nil { members.append(JSONMember(key: "template", value: .bool(true))) }
        return members
    }
}

extension ResponseContent {
    /// The headers as the configuration gives them: a repeated name's values as an array.
    var headersJSON: JSONValue {
        var members: [JSONMember] = []
        for name in headers.map(\.name) where !members.contains(where: { $0.key == name }) {
            let values = headers.filter { $0.name == name }.map(\.value)
            members.append(
                JSONMember(
                    key: name,
                    value: values == [HTTPHeader.withheld]
                        ? .null : values.count == 1 ? HeaderBytes.json(values[0]) : .array(values.map(HeaderBytes.json))
                ))
        }
        return .object(members)
    }
}

extension ResponseScript {
    /// `"javascript_file": NAME`, or `"javascript": SOURCE` for an inline script, as the configuration says it.
    var sourceMember: JSONMember {
        fileName.map { JSONMember(key: "javascript_file", value: .string($0)) }
            ?? JSONMember(key: "javascript", value: .string(source))
    }
}
