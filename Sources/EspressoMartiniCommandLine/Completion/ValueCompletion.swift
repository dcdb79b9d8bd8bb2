/// What a shell completes for an option's value.
public enum ValueCompletion: Sendable {
    /// Nothing to offer: a host name, a number.
    case nothing
    case files
    case directories
    /// One of these words.
    case words([String])
}
