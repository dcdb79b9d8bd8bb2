/// One problem found in a tree or a configuration file, printed as
/// `PATH:LINE:COLUMN: error: MESSAGE` (or `PATH: error: MESSAGE` where no position applies).
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    public let severity: Severity
    public let path: String
    public let position: SourcePosition?
    public let message: String

    public init(_ severity: Severity, path: String, position: SourcePosition? = nil, message: String) {
        self.severity = severity
        self.path = path
        self.position = position
        self.message = message
    }

    public var description: String {
        let place = position.map { "\(path):\($0.line):\($0.column)" } ?? path
        return "\(place): \(severity.rawValue): \(message)"
    }
}
