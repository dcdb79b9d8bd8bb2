/// The one optional word a command takes after its options (`init [<dir>]`): shown on its usage line and help
/// page, and completed by the shells like an option's value.
public struct PositionalArgument: Sendable {
    /// What the usage line and help page call it: `dir` in `[<dir>]`.
    public let name: String
    public let help: String
    public let completion: ValueCompletion

    public init(name: String, help: String, completion: ValueCompletion) {
        self.name = name
        self.help = help
        self.completion = completion
    }

    /// `[<dir>]`.
    public var synopsis: String { "[<\(name)>]" }
}
