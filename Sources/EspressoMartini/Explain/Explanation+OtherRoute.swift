extension Explanation {
    /// A route that matches the path but does not answer, and why.
    public struct OtherRoute: Sendable, Equatable {
        public enum Reason: Sendable, Equatable {
            /// It has an exchange for the method, but a more specific route answers (or has the variants).
            case lessSpecific
            /// It matches the same requests as the route chosen, which comes first: a session's runtime
            /// exchange before a server-wide one, a runtime exchange before the tree's (doc/admin-api.md).
            case overridden
            /// It has no exchange for the method the search asked for.
            case noExchangeForMethod

            /// As JSON says it: `less_specific`, `overridden`, `no_exchange_for_method`.
            public var name: String {
                switch self {
                case .lessSpecific: "less_specific"
                case .overridden: "overridden"
                case .noExchangeForMethod: "no_exchange_for_method"
                }
            }
        }

        /// As the folders spell it.
        public let route: RoutePattern
        /// The methods of its exchanges, in `HTTPMethod` order.
        public let methods: [HTTPMethod]
        public let reason: Reason
    }
}
