import EspressoMartini

/// YAML as the core's `JSONParser` reads documents: for `import openapi`, whose descriptions are JSON or
/// YAML. Only made when libyaml can be loaded.
public struct YAMLParser: JSONParser {
    /// Values a document may hold once its aliases are expanded.
    public let valueLimit: Int

    /// Nil when libyaml cannot be loaded.
    public init?(valueLimit: Int) {
        guard YAMLReader.isAvailable else { return nil }
        self.valueLimit = valueLimit
    }

    public func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError> {
        switch YAMLReader.read(bytes, valueLimit: valueLimit) {
        case .success(let value): .success(value)
        case .failure(.invalid(let problem)): .failure(problem)
        case .failure(.unavailable):
            .failure(
                JSONSyntaxError(
                    position: SourcePosition(line: 1, column: 1), message: "libyaml could not start a parser"))
        }
    }
}
