/// Thrown to end the process with a status of SPEC §8 (the values of BSD's sysexits.h).
struct ExitStatus: Error {
    let code: Int32

    /// Bad arguments (EX_USAGE).
    static let usageError = ExitStatus(code: 64)
    /// `init` would overwrite a file, or cannot create one (EX_CANTCREAT).
    static let cannotCreate = ExitStatus(code: 73)
    /// The address cannot be bound (EX_UNAVAILABLE).
    static let unavailable = ExitStatus(code: 69)
    /// Errors in the tree or the configuration (EX_CONFIG).
    static let configurationError = ExitStatus(code: 78)
}
