/// Where and why a Mustache template could not be parsed: the position is in the template's text
/// (counted from the origin the parse was given), the message says what to write instead.
public struct MustacheSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let position: SourcePosition
    public let message: String

    public init(position: SourcePosition, message: String) {
        self.position = position
        self.message = message
    }

    public var description: String { "\(position.line):\(position.column): \(message)" }
}
