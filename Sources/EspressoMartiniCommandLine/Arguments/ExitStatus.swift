/// Thrown to end the process with a status of doc/command-line.md (the values of BSD's sysexits.h).
public struct ExitStatus: Error, Sendable {
    public let code: Int32

    public init(code: Int32) {
        self.code = code
    }

    /// Bad arguments (EX_USAGE).
    public static let usageError = ExitStatus(code: 64)
    /// `init` would overwrite a file, or cannot create one (EX_CANTCREAT).
    public static let cannotCreate = ExitStatus(code: 73)
    /// The address cannot be bound (EX_UNAVAILABLE).
    public static let unavailable = ExitStatus(code: 69)
    /// Errors in the tree or the configuration (EX_CONFIG).
    public static let configurationError = ExitStatus(code: 78)
}
