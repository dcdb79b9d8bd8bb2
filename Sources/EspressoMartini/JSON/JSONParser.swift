/// Parses JSON text. The library that does the work lives behind this protocol,
/// so the loader stays free of C (the server module supplies jansson).
public protocol JSONParser: Sendable {
    func parse(_ bytes: [UInt8]) -> Result<JSONValue, JSONSyntaxError>
}

/// Where and why a document could not be parsed.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public let position: SourcePosition
    public let message: String

    public init(position: SourcePosition, message: String) {
        self.position = position
        self.message = message
    }
}
