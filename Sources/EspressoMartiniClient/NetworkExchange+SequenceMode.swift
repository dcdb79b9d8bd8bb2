extension NetworkExchange {
    /// What a sequence of responses does after its last one (doc/matching.md, Sequence modes); the raw
    /// value is `sequence`'s.
    public enum SequenceMode: String, Sendable, Hashable, CaseIterable {
        /// The last response repeats.
        case repeatLast = "repeat_last"
        /// The first response again after the last.
        case loop
        /// `410 Gone` after the last, until the counters are reset.
        case once
    }
}
