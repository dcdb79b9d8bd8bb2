/// A command whose options have been read and checked, ready to do its work.
public protocol Command {
    /// Throws an `ExitStatus` to end the process with that status.
    func run() throws
}
