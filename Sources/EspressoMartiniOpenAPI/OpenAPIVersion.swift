import EspressoMartini

/// Which description format a document is, by its `openapi` or `swagger` member.
enum OpenAPIVersion: Sendable {
    /// Swagger 2.0: `basePath`, `produces`, `definitions`, one schema per response.
    case swagger2
    /// OpenAPI 3.0: `servers`, `content` by media type, `nullable`, boolean `exclusiveMinimum`.
    case openAPI30
    /// OpenAPI 3.1 and later 3.x: JSON Schema 2020-12 (type lists, numeric `exclusiveMinimum`, `$ref`
    /// beside other keywords).
    case openAPI31

    /// The version a document declares, or why it is none this import reads.
    static func of(_ document: JSONValue) -> Result<OpenAPIVersion, DescriptionProblem> {
        guard case .object = document else {
            return .failure(
                DescriptionProblem(
                    "the document is \(document.kindName), not an OpenAPI description (an object with 'openapi' or 'swagger')"
                ))
        }
        if let declared = document.member("openapi") {
            let text = Self.text(declared)
            if text.hasPrefix("3.0") { return .success(.openAPI30) }
            if text.hasPrefix("3.") { return .success(.openAPI31) }
            return .failure(
                DescriptionProblem(
                    "'openapi: \(text)' is a version this import does not read (it reads OpenAPI 3.0 and 3.1, and Swagger 2.0)"
                ))
        }
        if let declared = document.member("swagger") {
            let text = Self.text(declared)
            if text == "2.0" || text == "2" { return .success(.swagger2) }
            return .failure(
                DescriptionProblem(
                    "'swagger: \(text)' is a version this import does not read (it reads Swagger 2.0, and OpenAPI 3.0 and 3.1)"
                ))
        }
        if document.member("swaggerVersion") != nil {
            return .failure(
                DescriptionProblem(
                    "this is a Swagger 1.x description, which this import does not read; convert it to OpenAPI 3 first")
            )
        }
        return .failure(
            DescriptionProblem("not an OpenAPI description: it has neither 'openapi' nor 'swagger' at its top"))
    }

    /// `3.0.3`, or `2.0` written as a number in YAML.
    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .real(let number): String(number)
        case .integer(let number): String(number)
        default: value.compactText
        }
    }

    /// Whether keywords beside a schema's `$ref` count (3.1) or are ignored (2.0, 3.0).
    var readsKeywordsBesideReferences: Bool { self == .openAPI31 }
}
