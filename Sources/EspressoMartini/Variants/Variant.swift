/// One answer of an exchange chosen by what the request says (doc/variants.md): its conditions, and its own sequence
/// of responses with its own call counter.
public struct Variant: Sendable {
    public let conditions: VariantConditions
    /// The `when` object as the configuration gives it, for `endpoints --json`; nil without `when`.
    public let when: JSONValue?
    /// Where its responses lie in the exchange's `responses`.
    public let responses: Range<Int>
    /// What its sequence does after its last response.
    public let sequence: SequenceMode

    public init(
        conditions: VariantConditions, when: JSONValue?, responses: Range<Int>, sequence: SequenceMode = .repeatLast
    ) {
        self.sequence = sequence
        self.conditions = conditions
        self.when = when
        self.responses = responses
    }
}
