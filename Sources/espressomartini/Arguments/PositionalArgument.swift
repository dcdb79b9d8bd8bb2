/// The one optional word a command takes after its options (`init [<dir>]`): shown on its usage line and help
/// page, and completed by the shells like an option's value.
struct PositionalArgument: Sendable {
    /// What the usage line and help page call it: `dir` in `[<dir>]`.
    let name: String
    let help: String
    let completion: ValueCompletion

    /// `[<dir>]`.
    var synopsis: String { "[<\(name)>]" }
}
