/// A word a command takes after its options (`init [<dir>]`, `explain <method> <target>`): shown on its usage
/// line and help page, and completed by the shells like an option's value. A required one must be given.
public struct PositionalArgument: Sendable {
    /// What the usage line and help page call it: `dir` in `[<dir>]`.
    public let name: String
    public let help: String
    public let completion: ValueCompletion
    public let isRequired: Bool

    public init(name: String, help: String, completion: ValueCompletion, isRequired: Bool = false) {
        self.name = name
        self.help = help
        self.completion = completion
        self.isRequired = isRequired
    }

    /// `<method>` when required, `[<dir>]` when not.
    public var synopsis: String { isRequired ? "<\(name)>" : "[<\(name)>]" }
}
