extension ConfiguredResponse {
    /// One line for `endpoints` and `explain`: `200 page-2.json`, `script order.js`, then what changes how
    /// it is sent (` delay 0.5s`, ` fault connection_reset`, ` template`).
    public var summary: String {
        (script?.summary ?? "\(statusCode) \(body.summary)")
            + (delay.map { " delay \($0.summary)" } ?? "") + (fault.map { " fault \($0.rawValue)" } ?? "")
            + (template != nil ? " template" : "")
    }

    /// The JSON members `endpoints --json` and `explain --json` give after the body: `delay` (null for the
    /// global one), then `fault` and `"template": true` when given.
    var sendingMembers: [JSONMember] {
        var members = [JSONMember(key: "delay", value: delay?.json ?? .null)]
        if let fault { members.append(JSONMember(key: "fault", value: .string(fault.rawValue))) }
        if template != nil { members.append(JSONMember(key: "template", value: .bool(true))) }
        return members
    }
}

extension ResponseScript {
    /// `"javascript_file": NAME`, or `"javascript": SOURCE` for an inline script, as the configuration says it.
    var sourceMember: JSONMember {
        fileName.map { JSONMember(key: "javascript_file", value: .string($0)) } ?? JSONMember(key: "javascript", value: .string(source))
    }
}
