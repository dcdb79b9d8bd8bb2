extension Explanation {
    /// How the request would be answered, as `Decider.decide` answers it.
    public enum Outcome: Sendable, Equatable {
        /// An exchange answers (its index in the tree): with variant `variant` (nil without variants), and
        /// the response at `response` in the exchange's `responses`.
        case exchange(Int, variant: Int?, response: Int)
        /// `410`: the `once` sequence of the exchange (its index) or of its variant `variant` has served
        /// all its responses.
        case sequenceOver(Int, variant: Int?)
        /// The route's exchange (its index) answers `404`: none of its variants holds.
        case noVariant(Int)
        /// `405`: routes match the path, none has the method; these are allowed.
        case methodNotAllowed([HTTPMethod])
        /// `404`: no route matches the path.
        case notFound
        /// `400`: the path has a `.` or `..` segment.
        case dotSegment
        /// The admin API answers (its prefix, while it is on).
        case adminAPI

        /// A word for JSON: `exchange`, `sequence_over`, `no_variant`, `method_not_allowed`, `not_found`, `dot_segment`, `admin_api`.
        public var name: String {
            switch self {
            case .exchange: "exchange"
            case .sequenceOver: "sequence_over"
            case .noVariant: "no_variant"
            case .methodNotAllowed: "method_not_allowed"
            case .notFound: "not_found"
            case .dotSegment: "dot_segment"
            case .adminAPI: "admin_api"
            }
        }
    }
}
