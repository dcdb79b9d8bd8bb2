import EspressoMartini

/// A media type a response is answered in, by how its body is made: JSON (`application/json`, any `+json`, or
/// `*/*`), text (`text/*`), JSON lines (`application/jsonl`, `application/x-ndjson`, …), YAML
/// (`application/yaml`, `application/x-yaml`, `text/yaml`, any `+yaml`), or another (PDF, archives, images,
/// XML, octet streams), whose bytes cannot be made from a schema.
struct BodyMediaType {
    enum Kind { case json, text, jsonLines, yaml, other }

    static let jsonLinesTypes: Set<String> = [
        "application/jsonl", "application/x-jsonl", "application/jsonlines", "application/x-jsonlines",
        "application/ndjson", "application/x-ndjson",
    ]
    static let yamlTypes: Set<String> = ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"]

    /// As the description spells it.
    let name: String
    let kind: Kind

    init(_ name: String) {
        let essence = ContentType.essence(name)
        if essence == ContentType.json || essence.hasSuffix("+json") || essence == "*/*" || essence == "application/*" {
            kind = .json
        } else if Self.jsonLinesTypes.contains(essence) {
            kind = .jsonLines
        } else if Self.yamlTypes.contains(essence) || essence.hasSuffix("+yaml") {
            kind = .yaml
        } else if essence.hasPrefix("text/") {
            kind = .text
        } else {
            kind = .other
        }
        self.name = name
    }

    /// The first of `names` in this order: JSON, text, JSON lines or YAML, any other; nil for none.
    static func choose(_ names: [String]) -> BodyMediaType? {
        let types = names.map(BodyMediaType.init)
        return types.enumerated().min { ($0.element.preference, $0.offset) < ($1.element.preference, $1.offset) }?
            .element
    }

    private var preference: Int {
        switch kind {
        case .json: 0
        case .text: 1
        case .jsonLines, .yaml: 2
        case .other: 3
        }
    }

    var fileExtension: String {
        switch kind {
        case .json: "json"
        case .jsonLines: "jsonl"
        case .yaml: "yaml"
        case .text, .other: ContentType.fileExtension(for: name)
        }
    }

    /// `Content-Type: NAME` where the body file's extension would give another type (`application/problem+json`,
    /// `text/plain; charset=iso-8859-1`), and always for the kinds whose answers may have no body or a file
    /// the server does not know (`.jsonl`); nil where the extension gives this type, or for a wildcard.
    var contentTypeHeader: HTTPHeader? {
        let essence = ContentType.essence(name)
        if essence.contains("*") { return nil }
        if kind == .json || kind == .text {
            let derived = ContentType.forFile("body." + fileExtension)
            guard name.contains(";") || ContentType.essence(derived) != essence else { return nil }
        }
        return HTTPHeader(name: "Content-Type", value: name)
    }

    /// The body file for `value`: indented JSON; the text of a string (any other value as JSON text); one
    /// compact JSON line per element of an array (any other value one line); YAML; none for another kind.
    func body(_ value: JSONValue) -> ResponseDraft.Body {
        switch (kind, value) {
        case (.text, .string(let text)): return self.text(text)
        case (.text, _): return text(value.compactAnswerText)
        case (.json, _): return .bytes(value.indentedAnswerBytes, fileExtension: fileExtension)
        case (.jsonLines, .array(let elements)):
            return .bytes(
                elements.flatMap { Array($0.compactAnswerText.utf8) + [0x0A] }, fileExtension: fileExtension)
        case (.jsonLines, _): return .bytes(Array(value.compactAnswerText.utf8) + [0x0A], fileExtension: fileExtension)
        case (.yaml, _): return text(YAMLEmitter.text(value))
        case (.other, _): return .none
        }
    }

    /// A body that is `text` as it is.
    func text(_ text: String) -> ResponseDraft.Body {
        .bytes(Array(text.utf8), fileExtension: fileExtension)
    }
}
