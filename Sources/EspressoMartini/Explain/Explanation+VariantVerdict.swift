extension Explanation {
    /// What became of one variant of the chosen exchange.
    public enum VariantVerdict: Sendable, Equatable {
        /// Its conditions hold: it answers.
        case holds
        /// This condition failed first (`query "page" is "3", expected "2"`).
        case fails(String)
        /// A variant before it answers.
        case notTried
    }
}
