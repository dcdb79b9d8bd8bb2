/// An inline JSON body whose strings are Mustache templates: the JSON around them is written once, as
/// compact text, when the tree loads; each string is rendered per request with `{{name}}` escaped as
/// JSON string content, so no request value can end the string it sits in. Member names are not
/// templates. A string with no variable and no section is kept as literal text.
public struct JSONBodyTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        /// A range of `literal`.
        case literal(Range<Int>)
        /// The content of a JSON string, between quotes that are literal text.
        case string(MustacheTemplate)
    }

    let parts: [Part]
    let literal: [UInt8]

    /// Compiles `value`; `compile` parses the string at `path` (below the body) as a template, and
    /// throws where it does not parse.
    public init<Failure: Error>(
        compiling value: JSONValue, _ compile: (_ text: String, _ path: [String]) throws(Failure) -> MustacheTemplate
    ) throws(Failure) {
        var builder = Builder()
        try builder.add(value, at: [], compile)
        builder.closeLiteral()
        parts = builder.parts
        literal = builder.literal
    }

    /// Appends the body rendered against `context` to `output`.
    public func render(_ context: some MustacheContext, into output: inout [UInt8]) {
        for part in parts {
            switch part {
            case .literal(let range): output.append(contentsOf: literal[range])
            case .string(let template): template.render(context, escaping: .json, into: &output)
            }
        }
    }

    private struct Builder {
        var parts: [Part] = []
        var literal: [UInt8] = []
        var literalStart = 0

        mutating func add<Failure: Error>(
            _ value: JSONValue, at path: [String], _ compile: (String, [String]) throws(Failure) -> MustacheTemplate
        ) throws(Failure) {
            switch value {
            case .string(let text):
                let template = try compile(text, path)
                if template.isPlainText {
                    // Comments and delimiter changes gone.
                    let plain = template.renderedText(JSONValue.null, escaping: .none)
                    literal.append(contentsOf: JSONValue.string(plain).compactText.utf8)
                } else {
                    literal.append(UInt8(ascii: "\""))
                    closeLiteral()
                    parts.append(.string(template))
                    literal.append(UInt8(ascii: "\""))
                }
            case .array(let elements):
                literal.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { literal.append(UInt8(ascii: ",")) }
                    try add(element, at: path + [String(index)], compile)
                }
                literal.append(UInt8(ascii: "]"))
            case .object(let members):
                literal.append(UInt8(ascii: "{"))
                for (index, member) in members.enumerated() {
                    if index > 0 { literal.append(UInt8(ascii: ",")) }
                    literal.append(contentsOf: JSONValue.string(member.key).compactText.utf8)
                    literal.append(UInt8(ascii: ":"))
                    try add(member.value, at: path + [member.key], compile)
                }
                literal.append(UInt8(ascii: "}"))
            default:
                literal.append(contentsOf: value.compactText.utf8)
            }
        }

        /// Ends the literal text written since the last part as a part of its own.
        mutating func closeLiteral() {
            if literal.count > literalStart { parts.append(.literal(literalStart..<literal.count)) }
            literalStart = literal.count
        }
    }
}
