/// Why a `MockServer` call failed, with what the server or the process said.
public enum MockServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `espressomartini` executable where it was looked for.
    case executableNotFound(String)
    /// The server did not come up: the reason, then what the process printed.
    case didNotStart(String)
    /// The server answered with an error status: its message, and for a bad filter or a refused reload
    /// every problem it listed (as a load reports them, with line and column).
    case refused(status: Int, message: String, errors: [String])
    /// The journal dropped requests since it was last emptied, so `count` may be short: the count it
    /// found. Empty the journal at the start of a test (`clearRequests()`), or raise `journal_size`.
    case incompleteJournal(count: Int)
    /// The server could not be reached, or answered something that is not the admin API's.
    case unreachable(String)
    /// An argument that cannot be sent, such as a `when` that is not JSON, or an exchange that cannot be
    /// written (no response, a file that is not there).
    case invalidArgument(String)
    /// The exchanges could not be written as a tree in their temporary folder: what the file system said.
    case treeNotWritten(String)
    /// `restart(exchanges:)` on a server that `start(exchanges:)` did not begin.
    case notStartedFromExchanges(String)

    public var description: String {
        switch self {
        case .executableNotFound(let detail): "espressomartini not found: \(detail)"
        case .didNotStart(let detail): "espressomartini did not start: \(detail)"
        case .refused(let status, let message, let errors):
            "the server answered \(status): \(message)"
                + (errors.count > 1 ? "\n" + errors.joined(separator: "\n") : "")
        case .incompleteJournal(let count):
            "the journal dropped requests since it was last emptied, so the count (\(count)) may be short; "
                + "call clearRequests() at the start of the test, or raise journal_size in the server configuration"
        case .unreachable(let detail): "the server cannot be reached: \(detail)"
        case .invalidArgument(let detail): detail
        case .treeNotWritten(let detail): "the exchanges could not be written as a tree: \(detail)"
        case .notStartedFromExchanges(let detail): detail
        }
    }
}
