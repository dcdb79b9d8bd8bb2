import EspressoMartini

/// A media type whose bodies are imported: JSON (`application/json`, any `+json`, or `*/*`) or text
/// (`text/*`). Other media types are skipped.
struct BodyMediaType {
    enum Kind { case json, text }

    /// As the description spells it.
    let name: String
    let kind: Kind

    init?(_ name: String) {
        let essence = ContentType.essence(name)
        if essence == ContentType.json || essence.hasSuffix("+json") || essence == "*/*" || essence == "application/*" {
            kind = .json
        } else if essence.hasPrefix("text/") {
            kind = .text
        } else {
            return nil
        }
        self.name = name
    }

    /// The first JSON media type of `names`, else the first text one.
    static func choose(_ names: [String]) -> BodyMediaType? {
        let types = names.compactMap(BodyMediaType.init)
        return types.first { $0.kind == .json } ?? types.first
    }

    var fileExtension: String {
        kind == .json ? "json" : ContentType.fileExtension(for: name)
    }

    /// `Content-Type: NAME` where the body file's extension would give another type (`application/problem+json`,
    /// `text/plain; charset=iso-8859-1`); nil where it gives this one.
    var contentTypeHeader: HTTPHeader? {
        let essence = ContentType.essence(name)
        if kind == .json, essence.contains("*") { return nil }
        let derived = ContentType.forFile("body." + fileExtension)
        guard name.contains(";") || ContentType.essence(derived) != essence else { return nil }
        return HTTPHeader(name: "Content-Type", value: name)
    }

    /// The body file for `value`: indented JSON, or the text of a string (any other value as JSON text).
    func body(_ value: JSONValue) -> ResponseDraft.Body {
        switch (kind, value) {
        case (.text, .string(let text)): .bytes(Array(text.utf8), fileExtension: fileExtension)
        case (.text, _): .bytes(Array(value.compactText.utf8), fileExtension: fileExtension)
        case (.json, _): .bytes(Array(value.indentedText.utf8), fileExtension: fileExtension)
        }
    }
}
