/// How a run of the binary ended, with everything it wrote.
struct ProcessOutcome: Sendable, CustomStringConvertible {
    /// The exit status when the process exited; nil when a signal ended it.
    let exitCode: Int32?
    /// The signal that ended the process, if one did.
    let signal: Int32?
    /// True when the process did not end within the bounded wait and was killed.
    let timedOut: Bool
    let standardOutput: String
    let standardError: String

    var standardErrorLines: [String] {
        standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }
    var standardOutputLines: [String] {
        standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    var description: String {
        let ending = timedOut ? "timed out (killed)" : exitCode.map { "exit \($0)" } ?? "signal \(signal ?? 0)"
        return "\(ending)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)"
    }
}
