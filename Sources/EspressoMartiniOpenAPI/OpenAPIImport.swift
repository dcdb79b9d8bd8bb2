import EspressoMartini

/// What reading a description gave: the exchanges to write, with every warning; or why nothing can be
/// imported.
public struct OpenAPIImport: Sendable {
    /// Why nothing can be imported.
    public enum Failure: Sendable, Equatable {
        /// The file cannot be read.
        case unreadable
        /// Not JSON or YAML, not an OpenAPI description, or no operation in it.
        case invalid
        /// The file is YAML and libyaml cannot be loaded.
        case yamlUnavailable
    }

    /// One per operation, in the description's order.
    public let exchanges: [ExchangeDraft]
    /// Warnings (and, with a failure, the error): `SPEC: warning: at /paths/~1pets/get: MESSAGE`.
    public let diagnostics: Diagnostics
    public let failure: Failure?
}
