import EspressoMartini

/// Drafts the exchanges of an OpenAPI 3.0, 3.1 or Swagger 2.0 description (JSON or YAML), one per operation,
/// for the tree writer (doc/openapi.md). Reads the description and the files its `$ref`s name; writes nothing.
public struct OpenAPIImporter: Sendable {
    public let parser: DescriptionParser

    public init(parser: DescriptionParser) {
        self.parser = parser
    }

    /// Values a YAML description may hold once its aliases are expanded.
    public static let yamlValueLimit = 5_000_000

    public func draft(file path: String) -> OpenAPIImport {
        let rootFile = DescriptionFiles.normalize(path)
        let report = ImportReport(rootFile: rootFile, rootDisplayName: path)
        func failed(_ failure: OpenAPIImport.Failure) -> OpenAPIImport {
            OpenAPIImport(exchanges: [], diagnostics: report.diagnostics, failure: failure)
        }
        guard let bytes = FileSystem.contents(of: path) else {
            let why =
                switch FileSystem.kind(of: path) {
                case nil: "there is no such file"
                case .directory: "it is a folder, not a file"
                default: "it cannot be read (check its permissions)"
                }
            report.error(in: rootFile, "cannot read the description: \(why)")
            return failed(.unreadable)
        }
        let document: JSONValue
        switch parser.parse(bytes, named: path) {
        case .success(let value): document = value
        case .failure(.syntax(let problem)):
            report.error(in: rootFile, at: problem.position, "\(problem.message); the description must be JSON or YAML")
            return failed(.invalid)
        case .failure(.yamlUnavailable):
            report.error(
                in: rootFile,
                "the description is not JSON, and reading YAML needs libyaml: \(DescriptionParser.yamlPackage)")
            return failed(.yamlUnavailable)
        }
        let version: OpenAPIVersion
        switch OpenAPIVersion.of(document) {
        case .success(let found): version = found
        case .failure(let why):
            report.error(in: rootFile, why.message)
            return failed(.invalid)
        }
        let files = DescriptionFiles(rootFile: rootFile, root: document, parser: parser, report: report)
        let context = ImportContext(
            version: version, root: Located(value: document, location: JSONLocation(file: rootFile)), files: files,
            jsonParser: parser.json
        )
        let exchanges = context.exchanges()
        context.reportMediaTypesNotServed()
        guard !exchanges.isEmpty else {
            let paths = document.member("paths")
            let why =
                paths == nil || paths == .object([]) ? "it has no paths" : "none of its operations could be imported"
            let webhooks =
                document.member("webhooks") == nil
                ? "" : " (its webhooks are requests the API sends, not ones it answers)"
            report.error(in: rootFile, "no operation to import: \(why)\(webhooks)")
            return failed(.invalid)
        }
        return OpenAPIImport(exchanges: exchanges, diagnostics: report.diagnostics, failure: nil)
    }
}
