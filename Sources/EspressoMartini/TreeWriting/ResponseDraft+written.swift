extension ResponseDraft {
    /// The response object `written` (as a configuration has it) as a draft, when it holds nothing but what
    /// a draft says: `status_code`, `headers` (strings or arrays of strings), and a `response_file` or an
    /// inline `body`. Nil for any other (a template, a delay, a script), which only a kept variant carries.
    public init?(written: JSONValue) {
        guard case .object(let members) = written else { return nil }
        self.init(statusCode: 200)
        for member in members {
            switch (member.key, member.value) {
            case ("status_code", .integer(let code)):
                statusCode = Int(code)
            case ("template", .bool(let isTemplate)):
                self.isTemplate = isTemplate
            case ("content_length", .integer(let length)) where length >= 0:
                contentLength = UInt64(length)
            case ("headers", .object(let named)):
                for header in named {
                    switch header.value {
                    case .string(let value): headers.append(HTTPHeader(name: header.key, value: value))
                    case .null: headers.append(HTTPHeader(name: header.key, value: HTTPHeader.withheld))
                    case .object:
                        guard let value = HeaderBytes.value(fromJSON: header.value) else { return nil }
                        headers.append(HTTPHeader(name: header.key, value: value))
                    case .array(let values):
                        for value in values {
                            if case .string(let text) = value {
                                headers.append(HTTPHeader(name: header.key, value: text))
                            } else if let text = HeaderBytes.value(fromJSON: value) {
                                headers.append(HTTPHeader(name: header.key, value: text))
                            } else {
                                return nil
                            }
                        }
                    default: return nil
                    }
                }
            case ("response_file", .string(let name)) where body == .none:
                body = .existingFile(name)
            case ("body", let value) where body == .none:
                body = .inline(value)
            default:
                return nil
            }
        }
    }
}
