/// An exchange to write into a tree: its method, its path, and its answers, as `configuration.json`
/// spells them (doc/tree.md, doc/matching.md, doc/variants.md, doc/faults-and-sessions.md).
public struct ExchangeDraft: Sendable {
    public enum Answers: Sendable {
        /// One response, or a sequence of them; `sequence` is written only when given (nil reads as `repeat_last`).
        case responses([ResponseDraft], sequence: SequenceMode?)
        /// Variants, tried in order.
        case variants([VariantDraft])
    }

    public var method: HTTPMethod
    public var path: [SegmentDraft]
    public var answers: Answers

    public init(method: HTTPMethod, path: [SegmentDraft], answers: Answers) {
        self.method = method
        self.path = path
        self.answers = answers
    }

    /// Every response, in the order the configuration lists them.
    public var allResponses: [ResponseDraft] {
        switch answers {
        case .responses(let responses, _): responses
        case .variants(let variants): variants.flatMap(\.responses)
        }
    }
}
