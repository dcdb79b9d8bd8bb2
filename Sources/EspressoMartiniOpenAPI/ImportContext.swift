import EspressoMartini

/// What drafting one description shares: its version, its files, the report, and the validator and the
/// generator of its schemas.
final class ImportContext {
    let version: OpenAPIVersion
    let root: Located
    let files: DescriptionFiles
    let validator: SchemaValidator
    let generator: SchemaGenerator
    /// For an example written as a string that holds JSON.
    let jsonParser: any JSONParser
    var report: ImportReport { files.report }
    /// Media types of responses answered in another of their media types: where each was first met, and how
    /// often (one warning each at the end, not one per response).
    var mediaTypesNotServed: [(name: String, first: JSONLocation, count: Int)] = []

    init(version: OpenAPIVersion, root: Located, files: DescriptionFiles, jsonParser: any JSONParser) {
        self.version = version
        self.root = root
        self.files = files
        self.jsonParser = jsonParser
        validator = SchemaValidator(files: files, version: version)
        generator = SchemaGenerator(files: files, validator: validator)
    }
}
