import EspressoMartini

/// Reads a description's files, JSON or YAML: a file named `*.json` as JSON; another whose first character is
/// `{` or `[` as JSON and, failing that, as YAML (which JSON with comments may still be); any other as YAML.
public struct DescriptionParser: Sendable {
    public enum Failure: Error, Sendable, Equatable {
        /// Neither JSON nor YAML: where and why (the JSON parser's account for a text that looks like JSON).
        case syntax(JSONSyntaxError)
        /// The text is not JSON and no YAML parser is at hand.
        case yamlUnavailable
    }

    /// What a user without libyaml is told to do.
    public static let yamlPackage = "install the Debian package libyaml-0-2, or convert the file to JSON"

    let json: any JSONParser
    let yaml: (any JSONParser)?

    /// `yaml`: nil when YAML cannot be read (libyaml missing); JSON descriptions are read all the same.
    public init(json: any JSONParser, yaml: (any JSONParser)?) {
        self.json = json
        self.yaml = yaml
    }

    public func parse(_ bytes: [UInt8], named name: String) -> Result<JSONValue, Failure> {
        var text = bytes[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }  // a UTF-8 byte order mark
        let content = Array(text)
        let first = content.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || name.lowercased().hasSuffix(".json") else {
            guard let yaml else { return .failure(.yamlUnavailable) }
            return yaml.parse(content).mapError { .syntax($0) }
        }
        switch json.parse(content) {
        case .success(let value): return .success(value)
        case .failure(let problem):
            if !name.lowercased().hasSuffix(".json"), let yaml, case .success(let value) = yaml.parse(content) {
                return .success(value)
            }
            return .failure(.syntax(problem))
        }
    }
}
