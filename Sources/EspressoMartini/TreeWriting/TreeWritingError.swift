/// Why the tree writer wrote nothing (or only part of an exchange's body files; `configuration.json`,
/// written last, is then as it was): the path concerned, and a message saying what to do.
public struct TreeWritingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
