/// One variant of an exchange to write: its conditions as a `when` object spells them
/// (`{"headers": {"Prefer": {"regex": "…"}}}`; nil for a variant that always holds), its responses and
/// their sequence mode (written only when given); or a variant kept exactly as a configuration has it.
public struct VariantDraft: Sendable {
    public var when: JSONValue?
    public var responses: [ResponseDraft]
    public var sequence: SequenceMode?
    /// A variant written back as it is (one a person wrote, with templates, delays or anything else):
    /// `when`, `responses` and `sequence` are then not used, and its files are not the writer's.
    public private(set) var kept: JSONValue?

    public init(when: JSONValue?, responses: [ResponseDraft], sequence: SequenceMode? = nil) {
        self.when = when
        self.responses = responses
        self.sequence = sequence
    }

    /// The variant `written`, an element of a configuration's `variants`, written back unchanged.
    public static func kept(_ written: JSONValue) -> VariantDraft {
        var draft = VariantDraft(when: nil, responses: [])
        draft.kept = written
        return draft
    }
}
