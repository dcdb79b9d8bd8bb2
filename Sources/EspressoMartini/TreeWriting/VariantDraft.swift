/// One variant of an exchange to write: its conditions as a `when` object spells them
/// (`{"headers": {"Prefer": {"regex": "…"}}}`; nil for a variant that always holds), its responses and
/// their sequence mode (written only when given).
public struct VariantDraft: Sendable {
    public var when: JSONValue?
    public var responses: [ResponseDraft]
    public var sequence: SequenceMode?

    public init(when: JSONValue?, responses: [ResponseDraft], sequence: SequenceMode? = nil) {
        self.when = when
        self.responses = responses
        self.sequence = sequence
    }
}
