extension NetworkExchange {
    /// One answer of an exchange with variants (doc/variants.md): its responses answer the requests for
    /// which every condition holds. Variants are tried in order; one without conditions answers every
    /// request, so it belongs last.
    ///
    /// ```swift
    /// .init(when: [.query("page", "2")], response: .init(kind: .fileContent(pathToFile: "Fixtures/page-2.json")))
    /// ```
    public struct Variant: Sendable {
        /// `when`: every one must hold.
        public var conditions: [Condition]
        /// Played in order, with the variant's own call counter.
        public var responses: [Response]
        public var sequence: SequenceMode

        public init(when conditions: [Condition] = [], responses: [Response], sequence: SequenceMode = .repeatLast) {
            self.conditions = conditions
            self.responses = responses
            self.sequence = sequence
        }

        public init(when conditions: [Condition] = [], response: Response) {
            self.init(when: conditions, responses: [response])
        }
    }
}
